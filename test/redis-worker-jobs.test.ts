/**
 * A long-lived worker lets go of the jobs that ended: it kept every job's planner, context and record before, a leak
 * proportional to the jobs it ran. A real `redis-server`, real engines, a site on 127.0.0.1.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';

import { redis } from '@crawlkit/redis';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import type { TaskWorker } from '../packages/crawlkit/src/worker/task-worker.ts';
import { ok } from './helpers/job-backends.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';
import { testRedis } from './setup/redis.ts';

const testRedisUrl = await testRedis();

let server: FixtureServer;
/** The `/held` requests not answered yet, and who waits for the next one. */
const held: ServerResponse[] = [];
let heldArrived: (() => void) | undefined;

beforeAll(async () => {
  server = await startRouteSite({
    '/page'(req, res) {
      sendPage(res, 'Page', `<p>${req.url}</p>`);
    },
    '/held'(_req, res) {
      held.push(res);
      heldArrived?.();
    },
  });
});
afterAll(async () => {
  for (const res of held) res.destroy();
  await server?.close();
});

async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(!testRedisUrl)('a Redis worker and the jobs it ran', () => {
  it(
    'holds none of its jobs once they ended, and runs a finished batch appended to again',
    { timeout: 90_000 },
    async () => {
      const prefix = `ck-worker-jobs-${randomUUID()}`;
      const backend = () => redis({ url: testRedisUrl!, prefix });
      const submitter = new Crawlkit({ backend: backend(), engine: 'http' });
      const engine = new Crawlkit({ backend: backend(), engine: 'http' });
      try {
        const worker = (await engine.startWorker({ sweepIntervalMs: 50 })) as TaskWorker;
        const ids: string[] = [];
        for (let i = 0; i < 20; i++) {
          const urls = [`${server.url}/page?job=${i}&n=1`, `${server.url}/page?job=${i}&n=2`];
          ids.push(ok(await submitter.batchScrape({ urls })).id);
        }
        for (const id of ids) expect(ok(await submitter.waitForJob(id)).status).toBe('completed');
        // Each job is let go once its last task returns, which follows the job's end by a few turns.
        await until(() => worker.jobs === 0);

        // The first batch runs again: the worker loads it again, and lets it go once it ends again.
        ok(await submitter.batchScrape({ urls: [`${server.url}/page?again=1`], appendToId: ids[0]! }));
        // It ends again at once: the finish lock of its first end (60 s) was held, so its end waited a minute.
        const again = ok(await submitter.waitForJob(ids[0]!, { signal: AbortSignal.timeout(30_000) }));
        expect(again).toMatchObject({ status: 'completed', total: 3, completed: 3 });
        await until(() => worker.jobs === 0);

        // A job cancelled while its page runs is let go once that page returns.
        const arrived = new Promise<void>((resolve) => (heldArrived = resolve));
        const cancelled = ok(await submitter.batchScrape({ urls: [`${server.url}/held`] }));
        await arrived;
        expect(worker.jobs).toBe(1);
        expect(await submitter.cancelBatchScrape(cancelled.id)).toEqual({ status: 'cancelled' });
        for (const res of held.splice(0)) sendPage(res, 'Held', '<p>Answered after the cancel.</p>');
        await until(() => worker.jobs === 0);
        await worker.close();
        expect(worker.jobs).toBe(0);
      } finally {
        await Promise.all([submitter.close(), engine.close()]);
      }
    },
  );

  it('forgets the gone jobs it told of once none of their pages runs', { timeout: 90_000 }, async () => {
    const prefix = `ck-worker-gone-${randomUUID()}`;
    const backend = () => redis({ url: testRedisUrl!, prefix });
    const submitter = new Crawlkit({ backend: backend(), engine: 'http' });
    const engine = new Crawlkit({ backend: backend(), engine: 'http' });
    const connection = await backend().connect();
    const told: string[] = [];
    engine.on('error', (e) => e.error.code === 'STORE_JOB_NOT_FOUND' && told.push(e.jobId!));
    try {
      const worker = (await engine.startWorker({ sweepIntervalMs: 50 })) as TaskWorker;
      const JOBS = 15;
      for (let i = 0; i < JOBS; i++) {
        const arrived = new Promise<void>((resolve) => (heldArrived = resolve));
        const { id } = ok(await submitter.batchScrape({ urls: [`${server.url}/held?gone=${i}`] }));
        await arrived;
        // The job goes from the store while its page runs (expired, deleted, a Redis flushed).
        await connection.store.jobs.delete(id);
        for (const res of held.splice(0)) sendPage(res, 'Held', '<p>Answered once the job was gone.</p>');
        await until(() => told.length === i + 1);
        expect(told[i]).toBe(id);
      }
      // Told once each, and not kept for the life of the worker: it kept every one before.
      expect(told).toHaveLength(JOBS);
      await until(() => worker.goneJobs === 0 && worker.jobs === 0);
      await worker.close();
    } finally {
      await Promise.all([submitter.close(), engine.close(), connection.close()]);
    }
  });
});
