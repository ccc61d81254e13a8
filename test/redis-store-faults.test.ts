/**
 * A worker whose store fails, with a real `redis-server` (one for the file, a prefix per test).
 *
 * - A fault that passes (Redis at `maxmemory` under `noeviction`: "OOM command not allowed") is not the page's
 *   failure: the task goes on once there is room (found walking distributed mode as an operator: 127 of 3,002 pages
 *   were recorded `WORKER_FAILED` with the OOM message, their links never followed).
 * - A refusal for good (an ACL user that may not touch the page cache's keys: `NOPERM`) ends the job at once, failed,
 *   with an error that says what to fix; before, its task was queued again every 5 s for ever and the job never ended.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';

import { createRedisStore, redis } from '@crawlkit/redis';
import { parseSearchQuery } from '@crawlkit/store';
import { Crawlkit, type CrawlErrorsResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ok } from './helpers-batch.ts';
import { ownRedisServer, stopOwnRedisServer, type RedisServer } from './setup/redis.ts';

let server: RedisServer | undefined;
/** A page held until the test lets it go; `arrived` resolves on each request. */
let site: Server;
let siteUrl = '';
let arrived: () => void = () => undefined;
let release: Promise<void> = Promise.resolve();

beforeAll(async () => {
  server = await ownRedisServer(['--maxmemory-policy', 'noeviction']);
  site = createServer((_req, res) => {
    arrived();
    void release.then(() => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        '<html><head><title>Held</title></head><body><main><h1>Held</h1><p>A held page.</p></main></body></html>',
      );
    });
  });
  site.listen(0, '127.0.0.1');
  await once(site, 'listening');
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await stopOwnRedisServer(server);
  site.close();
});

/** Faults met outside a page (the worker's `error (not a page)` lines), as `code: message`. */
function faultsOf(ck: Crawlkit): { list: string[]; next(): Promise<string> } {
  const list: string[] = [];
  let wake: ((fault: string) => void) | undefined;
  ck.on('error', ({ url, error }) => {
    if (url) return;
    const fault = `${error.code ?? ''}: ${error.error}`;
    list.push(fault);
    wake?.(fault);
  });
  return { list, next: () => new Promise((resolve) => (wake = resolve)) };
}

describe('a worker whose store fails', () => {
  it('waits out a store at maxmemory (noeviction) and stores the page once there is room', async () => {
    if (!server) return;
    const prefix = `ck-oom-${randomUUID().slice(0, 8)}`;
    const adminStore = await createRedisStore({ url: server.url, prefix: `${prefix}-admin` });
    const admin = adminStore.client;
    const submitter = new Crawlkit({ backend: redis({ url: server.url, prefix }), engine: 'http' });
    // A short task lock: BullMQ cannot record the failed attempt while Redis is full, so the item is taken again once
    // its lock lapses.
    const worker = new Crawlkit({ backend: redis({ url: server.url, prefix, taskLockMs: 1_000 }), engine: 'http' });
    const faults = faultsOf(worker);
    let letGo: () => void = () => undefined;
    release = new Promise((resolve) => (letGo = resolve));
    const requested = new Promise<void>((resolve) => (arrived = resolve));
    try {
      const { id } = ok(await submitter.batchScrape({ urls: [`${siteUrl}/`] }));
      await worker.startWorker();
      await requested;
      // The page is in hand: Redis fills up before it can be stored.
      await admin.config('SET', 'maxmemory', '1');
      const fault = faults.next();
      letGo();
      expect(await fault).toMatch(/^STORE_IO: .*OOM command not allowed/);
      await admin.config('SET', 'maxmemory', '0');

      const done = ok(await submitter.waitForJob(id));
      expect(done).toMatchObject({ status: 'completed', completed: 1 });
      expect(done.data).toHaveLength(1);
      expect(await submitter.getBatchScrapeErrors(id)).toMatchObject({ errors: [] });
      expect(faults.list.every((f) => f.startsWith('STORE_IO: '))).toBe(true);
    } finally {
      await admin.config('SET', 'maxmemory', '0');
      await worker.close();
      await submitter.close();
      await adminStore.close();
    }
  });

  it('ends the job failed at once when Redis refuses for good (an ACL user without the keys), saying what to fix', async () => {
    if (!server) return;
    const prefix = `ck-noperm-${randomUUID().slice(0, 8)}`;
    const adminStore = await createRedisStore({ url: server.url, prefix: `${prefix}-admin` });
    const admin = adminStore.client;
    // Every key of the deployment but the page cache's.
    await admin.acl('SETUSER', 'worker', 'on', '>worker-pw', '+@all', `~${prefix}:[^p]*`, `~${prefix}:p[^a]*`);
    const workerUrl = server.url.replace('redis://', 'redis://worker:worker-pw@');
    const submitter = new Crawlkit({ backend: redis({ url: server.url, prefix }), engine: 'http' });
    const worker = new Crawlkit({ backend: redis({ url: workerUrl, prefix }), engine: 'http' });
    const faults = faultsOf(worker);
    release = Promise.resolve();
    try {
      const { id } = ok(await submitter.batchScrape({ urls: [`${siteUrl}/a`, `${siteUrl}/b`] }));
      await worker.startWorker();

      const done = ok(await submitter.waitForJob(id));
      expect(done.status).toBe('failed');
      const { errors } = (await submitter.getBatchScrapeErrors(id)) as CrawlErrorsResponse;
      const refusals = errors.filter((e) => e.code === 'REDIS_REFUSED');
      expect(refusals.length).toBeGreaterThanOrEqual(1);
      expect(refusals[0]!.error).toMatch(/NOPERM|can't access/);
      expect(refusals[0]!.error).toContain('ACL SETUSER');
      expect(faults.list.every((f) => f.startsWith('REDIS_REFUSED'))).toBe(true);
    } finally {
      await worker.close();
      await submitter.close();
      await admin.acl('DELUSER', 'worker');
      await adminStore.close();
    }
  });
});

describe('a full Redis (maxmemory under noeviction)', () => {
  // Redis checks a script's writes against maxmemory only until the script has written once: a script that took a
  // task out of the active set, or an old copy out of the page cache, first could then store a page of any size.
  it('takes no page: a task completion and a page cache write are refused before they change anything', async () => {
    if (!server) return;
    const prefix = `ck-full-${randomUUID().slice(0, 8)}`;
    const store = await createRedisStore({ url: server.url, prefix });
    const now = Date.now();
    const job = { id: 'j1', kind: 'batch' as const, status: 'scraping' as const, request: '{}', createdAt: now };
    const page = 'x'.repeat(200_000);
    try {
      await store.jobs.create({ ...job, updatedAt: now, creditsUsed: 0 }, [{ key: 'a', url: 'http://a/', depth: 0 }]);
      expect(await store.tasks.claim('j1', 1)).toHaveLength(1);
      await store.client.config('SET', 'maxmemory', '1');

      await expect(store.tasks.complete('j1', { key: 'a', credits: 1, document: page })).rejects.toMatchObject({
        code: 'STORE_IO',
        message: expect.stringContaining('OOM command not allowed'),
      });
      await expect(store.pages.put({ key: 'k', url: 'http://a/', cachedAt: now, value: page })).rejects.toMatchObject({
        code: 'STORE_IO',
      });
      // Reads and deletes still run.
      expect(await store.tasks.counts('j1')).toMatchObject({ active: 1, done: 0 });
      expect(await store.pages.stats()).toEqual({ entries: 0, bytes: 0 });
      expect(await store.results.count('j1')).toBe(0);
      // A first search, which would write an index of an earlier version's terms again, reads the index as it is.
      const query = parseSearchQuery('held');
      expect(query.ok && (await store.search!.search({ terms: query.terms, limit: 10 }))).toEqual([]);

      // Room again: the same completion goes through.
      await store.client.config('SET', 'maxmemory', '0');
      expect(await store.tasks.complete('j1', { key: 'a', credits: 1, document: page })).toMatchObject({
        duplicate: false,
      });
      expect(await store.tasks.counts('j1')).toMatchObject({ active: 0, done: 1 });
    } finally {
      await store.client.config('SET', 'maxmemory', '0');
      await store.jobs.delete('j1');
      await store.close();
    }
  });
});
