/**
 * The webhook outbox's leadership on a shared Redis: a process that takes the lead is told at once, so that it looks
 * at the outbox then rather than at its next idle look (up to 5 s later).
 */
import { randomUUID } from 'node:crypto';

import { redis, type RedisBackendConnection } from '@crawlkit/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Leadership } from '../packages/crawlkit/src/worker/leadership.ts';
import { testRedis } from './setup/redis.ts';

const testRedisUrl = await testRedis();

describe.skipIf(!testRedisUrl)('the webhook leadership', () => {
  let connection: RedisBackendConnection;
  beforeAll(async () => {
    connection = await redis({ url: testRedisUrl!, prefix: `ck-lead-${randomUUID()}` }).connect();
  });
  afterAll(async () => {
    await connection?.close();
  });

  it('tells a process when it takes the lead, once, and not at its renewals', async () => {
    const ttlMs = 900;
    const first = new Leadership(connection.coordination, 'webhooks', 'first', ttlMs);
    const second = new Leadership(connection.coordination, 'webhooks', 'second', ttlMs);
    const taken: string[] = [];
    first.onTaken = () => taken.push('first');
    second.onTaken = () => taken.push('second');
    await first.start();
    await second.start();
    expect([first.held, second.held]).toEqual([true, false]);
    await first.stop();
    // Before: the second took the lock at a renewal and nobody was told; its outbox waited for the idle look.
    await expect.poll(() => taken, { timeout: 10_000 }).toEqual(['first', 'second']);
    expect(second.held).toBe(true);
    // Renewals of a lead already held tell nothing.
    await new Promise((resolve) => setTimeout(resolve, ttlMs));
    expect(taken).toEqual(['first', 'second']);
    await second.stop();
  });
});
