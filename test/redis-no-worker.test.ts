/**
 * A job on Redis that no worker runs says so. `serve --redis` and `crawl --redis` run no page: with no `crawlkit
 * worker` alive on the deployment (none started, all stopped or killed, or started with another key prefix), a job
 * waited `scraping` at 0/1 with nothing in its status to tell why. Workers now keep a presence in Redis (renewed as
 * often as a task lock, so a killed one lapses with its locks), and the status of a running job that no worker can
 * take carries a `warning` saying what to start. A real `redis-server`, a `crawlkit worker` child process.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { redis } from '@crawlkit/redis';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { listenOnLoopback, type LoopbackServer } from '../fixtures/loopback-listen.ts';
import { ensureBuilt, runCli, startRedisWorker } from './cli-helpers.ts';
import { ok } from './helpers-batch.ts';
import { testRedis } from './setup/redis.ts';

const testRedisUrl = await testRedis();
const LOCK_MS = 1_000;
const NO_WORKER = /No worker is running on this deployment/;
let dir: string;
let site: LoopbackServer | undefined;
let siteUrl = '';
/** Requests held until `release()`, so that a job stays running while its status is read. */
const held: ServerResponse[] = [];
let releaseAll = false;

function answer(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end('<html><head><title>Page</title></head><body><main><h1>Page</h1><p>Text.</p></main></body></html>');
}

function release(): void {
  releaseAll = true;
  for (const res of held.splice(0)) answer(res);
}

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ck-no-worker-'));
  site = await listenOnLoopback(createServer((_req, res) => (releaseAll ? answer(res) : held.push(res))));
  siteUrl = site.url;
}, 180_000);
afterAll(async () => {
  await site?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!testRedisUrl)('a job on Redis with no worker', () => {
  it('warns in its status until a worker of its prefix runs, and again once the last one stops', async () => {
    const prefix = `ck-no-worker-${randomUUID()}`;
    const backend = (p = prefix) => redis({ url: testRedisUrl!, prefix: p, taskLockMs: LOCK_MS });
    const submitter = new Crawlkit({ backend: backend(), engine: 'http' });
    const elsewhere = new Crawlkit({ backend: backend(`${prefix}-other`), engine: 'http' });
    const worker = new Crawlkit({ backend: backend(), engine: 'http' });
    try {
      const { id } = ok(await submitter.crawl({ url: `${siteUrl}/`, limit: 1 }));
      const waiting = ok(await submitter.getCrawlStatus(id));
      expect(waiting).toMatchObject({ status: 'scraping', completed: 0 });
      expect(waiting.warning).toMatch(NO_WORKER);

      // What the operator runs: `crawlkit status` prints the warning.
      const cli = await runCli(['status', id, '--redis', testRedisUrl!, '--redis-prefix', prefix], {
        cwd: dir,
        env: { CRAWLKIT_REDIS_URL: '', CRAWLKIT_REDIS_PREFIX: '' },
      });
      expect(cli.stderr).toMatch(NO_WORKER);

      // A worker of another prefix is another deployment: it takes none of these tasks.
      await elsewhere.startWorker();
      expect(ok(await submitter.getCrawlStatus(id)).warning).toMatch(NO_WORKER);

      const running = await worker.startWorker();
      await expect.poll(() => held.length, { timeout: 30_000 }).toBe(1);
      expect(ok(await submitter.getCrawlStatus(id)).warning).toBeUndefined();
      release();
      const done = ok(await submitter.waitForJob(id));
      expect(done).toMatchObject({ status: 'completed', completed: 1 });
      expect(done.warning).toBeUndefined();

      // Its last worker stopped, the next job waits with the warning.
      await running.close();
      const next = ok(await submitter.crawl({ url: `${siteUrl}/`, limit: 1 }));
      expect(ok(await submitter.getCrawlStatus(next.id)).warning).toMatch(NO_WORKER);
    } finally {
      release();
      releaseAll = false;
      await worker.close();
      await elsewhere.close();
      await submitter.close();
    }
  }, 60_000);

  it('warns again about taskLockMs after its only worker was killed', async () => {
    const prefix = `ck-no-worker-${randomUUID()}`;
    const submitter = new Crawlkit({ backend: redis({ url: testRedisUrl!, prefix }), engine: 'http' });
    const killed = startRedisWorker(testRedisUrl!, prefix, LOCK_MS, dir);
    try {
      const { id } = ok(await submitter.crawl({ url: `${siteUrl}/`, limit: 1 }));
      // The worker takes the page and its request is held: the job runs, on a live worker.
      await expect.poll(() => held.length, { timeout: 30_000 }).toBe(1);
      expect(ok(await submitter.getCrawlStatus(id)).warning).toBeUndefined();
      killed.kill('SIGKILL');
      await killed.result;
      await expect
        .poll(async () => ok(await submitter.getCrawlStatus(id)).warning, { timeout: 10 * LOCK_MS, interval: 100 })
        .toMatch(NO_WORKER);
    } finally {
      if (killed.exitCode === null) killed.kill('SIGKILL');
      release();
      releaseAll = false;
      await submitter.close();
    }
  }, 60_000);
});
