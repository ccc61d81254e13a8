/**
 * How soon a killed worker's page is taken over: its task's lock (`taskLockMs`, `crawlkit worker --task-lock-ms`)
 * lapses and the next look for lapsed locks (every `stalledCheckMs`, half the lock) hands it to another worker. With
 * the default lock (30 s) that is 30 to 45 s after the kill; here a 1 s lock, and the test waits for the takeover
 * itself (the page's second request), not for a timer. A real `redis-server`, a `crawlkit worker` child process.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { redis } from '@crawlkit/redis';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ensureBuilt, startRedisWorker } from './cli-helpers.ts';
import { ok } from './helpers-batch.ts';
import { testRedis } from './setup/redis.ts';

const testRedisUrl = await testRedis();
const LOCK_MS = 1_000;
let dir: string;
/** The page: its first request is held for ever (the worker that took it is killed), later ones answer. */
let site: Server;
let siteUrl = '';
const requests: { at: number; res: ServerResponse }[] = [];
const waiters: (() => void)[] = [];

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ck-takeover-'));
  site = createServer((_req, res) => {
    requests.push({ at: Date.now(), res });
    for (const wake of waiters.splice(0)) wake();
    if (requests.length === 1) return;
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><head><title>Taken</title></head><body><main><h1>Taken over</h1><p>Once.</p></main></body></html>');
  });
  site.listen(0, '127.0.0.1');
  await once(site, 'listening');
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
}, 180_000);
afterAll(() => {
  site?.closeAllConnections();
  site?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Resolves once the site has had `n` requests. */
async function requested(n: number): Promise<void> {
  while (requests.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
}

describe.skipIf(!testRedisUrl)('a killed worker', () => {
  it.each([
    ['', {}],
    // The job's running slot the killed worker held (its maxConcurrency, shared in Redis) frees itself as soon.
    [' (a job with maxConcurrency 1)', { maxConcurrency: 1 }],
  ])(
    `loses its page to another worker about taskLockMs (${LOCK_MS} ms) after the kill%s`,
    { timeout: 90_000 },
    async (_name, options) => {
      requests.length = 0;
      const prefix = `ck-takeover-${randomUUID()}`;
      const backend = () => redis({ url: testRedisUrl!, prefix, taskLockMs: LOCK_MS });
      const submitter = new Crawlkit({ backend: backend(), engine: 'http' });
      const killed = startRedisWorker(testRedisUrl!, prefix, LOCK_MS, dir);
      const other = new Crawlkit({ backend: backend(), engine: 'http' });
      try {
        const { id } = ok(await submitter.batchScrape({ urls: [`${siteUrl}/page`], ...options }));
        // The child worker has the page in hand; the other worker is up, with nothing to do.
        await requested(1);
        await other.startWorker();
        const killedAt = Date.now();
        killed.kill('SIGKILL');
        await requested(2);
        const takeoverMs = requests[1]!.at - killedAt;
        // The lock lapses within LOCK_MS of the kill and the next check comes within LOCK_MS / 2 of that; a loaded
        // machine adds its delays, and the default lock would take 30 s at least.
        expect(takeoverMs).toBeLessThan(10 * LOCK_MS);

        const done = ok(await submitter.waitForJob(id));
        expect(done).toMatchObject({ status: 'completed', completed: 1 });
        expect(done.data.map((d) => d.metadata.title)).toEqual(['Taken']);
      } finally {
        if (killed.exitCode === null) killed.kill('SIGKILL');
        await killed.result;
        await other.close();
        await submitter.close();
      }
    },
  );
});
