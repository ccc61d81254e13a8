/**
 * `GET /ready` says a store with no room left, so that a load balancer stops sending work every page of which would
 * fail to be stored: below `readyMinFreeMb` of free space on the SQLite file's disk, or of Redis's `maxmemory` less its
 * `used_memory`, it answers 503 `STORE_FULL`. The disk's free space is the real one (`statfs`); the threshold is set
 * above and below it. Redis is a server of the file's own, its `maxmemory` set with `CONFIG SET`.
 *
 * A SQLite file deleted under the server (a cleaner of /tmp, an operator's `rm`) makes it unready too: before, it
 * answered ready and took jobs into the deleted file, all lost at its restart.
 */
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createRedisStore, redis } from '@crawlkit/redis';
import { startServer } from '@crawlkit/server';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { call } from './helpers/raw-http.ts';
import { ownRedisServer, stopOwnRedisServer, type RedisServer } from './setup/redis.ts';

const MIB = 1024 * 1024;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

let dir: string;
let redisServer: RedisServer | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ck-ready-space-'));
  redisServer = await ownRedisServer();
}, 60_000);
afterAll(async () => {
  await stopOwnRedisServer(redisServer);
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `fn` on a server over `crawlkit` requiring `readyMinFreeMb`, then closes it. */
async function onServer<T>(crawlkit: Crawlkit, readyMinFreeMb: number | undefined, fn: (url: string) => Promise<T>) {
  const server = await startServer({
    port: 0,
    crawlkit,
    logger: quiet,
    ...(readyMinFreeMb === undefined ? {} : { readyMinFreeMb }),
  });
  try {
    return await fn(server.url);
  } finally {
    await server.close();
  }
}

/** `GET /ready` of a server over `crawlkit` requiring `readyMinFreeMb`. */
const ready = (crawlkit: Crawlkit, readyMinFreeMb?: number) =>
  onServer(crawlkit, readyMinFreeMb, (url) => call(url, 'GET', '/ready'));

/**
 * What a server over `crawlkit` requiring `readyMinFreeMb` says of its store: `GET /ready`, and whether it takes a new
 * crawl of `page` (`POST /v2/crawl`): the two must agree.
 */
const readyAndAdmission = (crawlkit: Crawlkit, page: string, readyMinFreeMb?: number) =>
  onServer(crawlkit, readyMinFreeMb, async (url) => {
    const probe = await call(url, 'GET', '/ready');
    const crawl = await call(url, 'POST', '/v2/crawl', { body: { url: page, limit: 1 } });
    return { ready: [probe.status, probe.body.code], crawl: [crawl.status, crawl.body.code] };
  });

describe('/ready and the room left in the store', () => {
  it('answers 503 STORE_FULL when the SQLite file’s disk has less free than required; ready below it or with 0', async () => {
    const ck = new Crawlkit({ storeDir: dir, engine: 'http' });
    try {
      const answer = await ck.checkReady();
      const disk = statfsSync(dir);
      expect(answer).toMatchObject({ success: true, freeBytes: expect.any(Number) });
      // the free space measured now and by the engine a moment apart: within what the machine writes meanwhile
      expect(Math.abs((answer as { freeBytes: number }).freeBytes - disk.bavail * disk.bsize)).toBeLessThan(256 * MIB);
      const freeMb = Math.floor((disk.bavail * disk.bsize) / MIB);
      const full = await ready(ck, freeMb + 1024);
      expect(full).toMatchObject({ status: 503, body: { success: false, status: 'unavailable', code: 'STORE_FULL' } });
      expect(full.body.error).toMatch(/^Not ready: the store has less than \d+ MiB of room left/);
      expect(full.body.error).toContain('--ready-min-free');
      expect(full.body.error).not.toContain(dir);
      expect(await ready(ck, 0)).toMatchObject({ status: 200, body: { success: true, status: 'ready' } });
      expect(await ready(ck, Math.max(0, freeMb - 512))).toMatchObject({ status: 200 });
    } finally {
      await ck.close();
    }
  });

  it('answers 503 when the SQLite file was deleted under the running engine, without its path', async () => {
    const own = join(dir, 'deleted');
    const ck = new Crawlkit({ storeDir: own, engine: 'http' });
    try {
      expect(await ready(ck)).toMatchObject({ status: 200 });
      for (const suffix of ['', '-wal', '-shm']) rmSync(join(own, `crawlkit.db${suffix}`), { force: true });
      const gone = await ready(ck);
      expect(gone).toMatchObject({ status: 503, body: { success: false, status: 'unavailable', code: 'STORE_IO' } });
      expect(gone.body.error).toMatch(/^Not ready: The store's file was deleted or replaced/);
      expect(gone.body.error).not.toContain(own);
    } finally {
      await ck.close();
    }
  });

  it(
    'answers 503 STORE_FULL when Redis is near its maxmemory, and refuses new crawls alike; ready without maxmemory',
    { timeout: 30_000 },
    async () => {
      expect(redisServer, 'a redis-server for this file').toBeDefined();
      const adminStore = await createRedisStore({ url: redisServer!.url, prefix: 'ck-ready-space-admin' });
      const admin = adminStore.client;
      const ck = new Crawlkit({ backend: redis({ url: redisServer!.url, prefix: 'ck-ready-space' }), engine: 'http' });
      try {
        expect(await ck.checkReady()).toEqual({ success: true });
        expect(await ready(ck)).toMatchObject({ status: 200 });
        const used = Number(/^used_memory:(\d+)/m.exec(await admin.info('memory'))![1]);
        await admin.config('SET', 'maxmemory', String(used + 32 * MIB));
        const small = await ck.checkReady();
        expect(small).toMatchObject({ success: true, freeBytes: expect.any(Number), totalBytes: used + 32 * MIB });
        expect((small as { freeBytes: number }).freeBytes).toBeLessThan(33 * MIB);
        // A small Redis (32 MiB free of ~33) is not full: by default ready, as it takes crawls (before: /ready 503
        // STORE_FULL from the start, under the 64 MiB it asked of any store, while POST /v2/crawl took jobs).
        const page = 'http://127.0.0.1:9/';
        expect(await readyAndAdmission(ck, page)).toEqual({ ready: [200, undefined], crawl: [200, undefined] });
        // The room the operator asks for is asked as it is, of both.
        expect(await readyAndAdmission(ck, page, 64)).toEqual({
          ready: [503, 'STORE_FULL'],
          crawl: [503, 'STORE_FULL'],
        });
        expect(await ready(ck, 16)).toMatchObject({ status: 200 });
        // Near full (64 KiB left, under an eighth of its room): unready, and a new crawl is refused alike.
        const now = Number(/^used_memory:(\d+)/m.exec(await admin.info('memory'))![1]);
        await admin.config('SET', 'maxmemory', String(now + 64 * 1024));
        expect(await readyAndAdmission(ck, page)).toEqual({ ready: [503, 'STORE_FULL'], crawl: [503, 'STORE_FULL'] });
      } finally {
        await admin.config('SET', 'maxmemory', '0');
        await adminStore.close();
        await ck.close();
      }
    },
  );

  it('refuses a readyMinFreeMb that is not a whole number of MiB, 0 or more', async () => {
    const ck = new Crawlkit({ store: 'memory' });
    try {
      await expect(startServer({ port: 0, crawlkit: ck, readyMinFreeMb: -1 })).rejects.toMatchObject({
        code: 'INVALID_OPTION',
        message: expect.stringContaining('readyMinFreeMb'),
      });
      // the memory store cannot tell its room: no check
      expect(await ck.checkReady()).toEqual({ success: true });
    } finally {
      await ck.close();
    }
  });
});
