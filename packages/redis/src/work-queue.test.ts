import { randomUUID } from 'node:crypto';

import type { WorkItem } from '@crawlkit/store';
import { describe, expect, it } from 'vitest';

import { testRedis } from '../../../test/setup/redis.ts';
import { redis } from './index.js';

const testRedisUrl = await testRedis();

describe.skipIf(!testRedisUrl)('BullWorkQueue', () => {
  // The contract: queuing is idempotent while an item is queued. An item given up after its attempts is not queued:
  // before, BullMQ kept it (removeOnFail) and took the same item queued again as a duplicate, so a task whose store
  // kept failing (Redis out of memory) could never run again, not even when the workers' sweep put it back.
  it('queues again an item that was given up', { timeout: 60_000 }, async () => {
    const connection = await redis({ url: testRedisUrl!, prefix: `ck-queue-${randomUUID()}` }).connect();
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
});
