/**
 * A worker whose store keeps failing longer than the queue's attempts (found walking distributed mode as an operator:
 * Redis at `maxmemory` with `noeviction` refused writes for a while, and 127 of 3,002 pages were recorded failed with
 * `WORKER_FAILED: The task failed on every attempt: … OOM command not allowed …`, their links never followed). A store
 * fault is not the page's failure: the task goes on once the store answers again.
 *
 * The fault is made with a Redis ACL user that may not touch the page cache's keys (`<prefix>:page*`), so that each
 * attempt's cache lookup is refused (`STORE_IO`, NOPERM) while the queue works; the keys are then allowed.
 */
import { randomUUID } from 'node:crypto';

import { createRedisStore, redis } from '@crawlkit/redis';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ok, until } from './helpers-batch.ts';
import { ownRedisServer, stopOwnRedisServer, type RedisServer } from './setup/redis.ts';

let site: FixtureServer;
let server: RedisServer | undefined;

beforeAll(async () => {
  site = await startFixtureServer();
  server = await ownRedisServer();
});
afterAll(async () => {
  await stopOwnRedisServer(server);
  await site.close();
});

describe('a worker whose store keeps failing', () => {
  it('does not record the page failed: it runs once the store answers', { timeout: 120_000 }, async () => {
    if (!server) return;
    const prefix = `ck-faults-${randomUUID().slice(0, 8)}`;
    const adminStore = await createRedisStore({ url: server.url, prefix: `${prefix}-admin` });
    const admin = adminStore.client;
    // Every key of the deployment but the page cache's.
    await admin.acl('SETUSER', 'worker', 'on', '>worker-pw', '+@all', `~${prefix}:[^p]*`, `~${prefix}:p[^a]*`);
    const workerUrl = server.url.replace('redis://', 'redis://worker:worker-pw@');
    const submitter = new Crawlkit({ backend: redis({ url: server.url, prefix }), engine: 'http' });
    const worker = new Crawlkit({ backend: redis({ url: workerUrl, prefix }), engine: 'http' });
    const faults: string[] = [];
    worker.on('error', ({ url, error }) => {
      if (!url) faults.push(error.code ?? '');
    });
    try {
      const { id } = ok(await submitter.batchScrape({ urls: [`${site.url}/`] }));
      await worker.startWorker();
      // Five attempts (BullMQ's, with back-off: ~15 s) each met the refusal.
      await until(() => faults.length >= 5, 90_000);
      await admin.acl('SETUSER', 'worker', 'allkeys');

      const done = ok(await submitter.waitForJob(id));
      expect(done).toMatchObject({ status: 'completed', completed: 1 });
      expect(done.data).toHaveLength(1);
      expect(await submitter.getBatchScrapeErrors(id)).toMatchObject({ errors: [] });
      expect(faults.every((code) => code === 'STORE_IO')).toBe(true);
    } finally {
      await worker.close();
      await submitter.close();
      await adminStore.close();
    }
  });
});
