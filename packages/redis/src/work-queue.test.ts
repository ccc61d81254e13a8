import { randomUUID } from 'node:crypto';

import type { WorkItem } from '@crawlkit/store';
import { describe, expect, it } from 'vitest';

import { testRedis } from '../../../test/setup/redis.ts';
import { createRedisStore, redis } from './index.js';

const testRedisUrl = await testRedis();

describe.skipIf(!testRedisUrl)('BullWorkQueue', () => {
  // The contract: queuing is idempotent while an item is queued. An item given up after its attempts is not queued:
  // before, BullMQ kept it (removeOnFail) and took the same item queued again as a duplicate, so a task whose store
  // kept failing (Redis out of memory) could never run again, not even when the workers' sweep put it back.
  it('queues again an item that was given up', { timeout: 60_000 }, async () => {
    // A short back-off: the default (1 s, doubled) spent 15 s waiting between the five runs.
    const connection = await redis({
      url: testRedisUrl!,
      prefix: `ck-queue-${randomUUID()}`,
      taskRetryDelayMs: 20,
    }).connect();
    try {
      const item: WorkItem = { jobId: 'job', key: 'k', url: 'https://example.com/', depth: 0, attempt: 0 };
      let calls = 0;
      let givenUp!: () => void;
      const finalFailure = new Promise<void>((resolve) => (givenUp = resolve));
      let ranAgain!: () => void;
      const second = new Promise<void>((resolve) => (ranAgain = resolve));
      await connection.queue.consume(
        (_item, attempt) => {
          calls++;
          if (calls > 5) return Promise.resolve(ranAgain());
          if (attempt.final) givenUp();
          return Promise.reject(new Error('the store failed'));
        },
        { concurrency: 1 },
      );
      await connection.queue.enqueue([item]);
      await finalFailure;
      await expect
        .poll(() => connection.queue.counts(), { timeout: 10_000 })
        .toEqual({ waiting: 0, active: 0, delayed: 0 });

      await connection.queue.enqueue([item]);
      await second;
      expect(calls).toBe(6);
    } finally {
      await connection.close();
    }
  });

  // A job's queue order counter (`j:<job>:qo`) is one of its keys: before, queuing an item of a job already deleted
  // (a sweep's late re-queue) created it again with no expiry, left in Redis for good.
  it("keeps no order counter for a job that is gone, and gives a job's counter the job's expiry", async () => {
    const prefix = `ck-queue-${randomUUID()}`;
    const connection = await redis({ url: testRedisUrl!, prefix }).connect();
    const raw = await createRedisStore({ url: testRedisUrl!, prefix });
    try {
      const item = (jobId: string): WorkItem => ({
        jobId,
        key: 'k',
        url: 'https://example.com/',
        depth: 0,
        attempt: 0,
      });
      await connection.queue.enqueue([item('gone')]);
      expect(await raw.client.exists(`${prefix}:j:gone:qo`)).toBe(0);

      const now = Date.now();
      await connection.store.jobs.create(
        { id: 'j1', kind: 'batch', status: 'completed', request: '{}', createdAt: now, updatedAt: now, creditsUsed: 0 },
        [],
      );
      await connection.store.jobs.update('j1', { expiresAt: now + 60_000 });
      await connection.queue.enqueue([item('j1')]);
      const ttl = await raw.client.pttl(`${prefix}:j:j1:qo`);
      expect(ttl).toBeGreaterThan(60_000);
      expect(ttl).toBeLessThanOrEqual(60_000 + 3_600_000);
    } finally {
      await raw.close();
      await connection.close();
    }
  });
});
