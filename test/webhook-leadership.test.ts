/**
 * The webhook outbox's leadership on a shared Redis: a process that takes the lead is told at once, so that it looks
 * at the outbox then rather than at its next idle look (up to 5 s later).
 */
import { randomUUID } from 'node:crypto';

import { redis, type RedisBackendConnection } from '@crawlkit/redis';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Leadership } from '../packages/crawlkit/src/worker/leadership.ts';
import { testRedis } from './setup/redis.ts';

const testRedisUrl = await testRedis();

describe.skipIf(!testRedisUrl)('the webhook leadership', () => {
  const prefix = `ck-lead-${randomUUID()}`;
  let connection: RedisBackendConnection;
  beforeAll(async () => {
    connection = await redis({ url: testRedisUrl!, prefix }).connect();
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

  it('is taken over within a second of a clean release, whatever the TTL', async () => {
    const first = new Leadership(connection.coordination, 'handover', 'first', 10_000);
    const second = new Leadership(connection.coordination, 'handover', 'second', 10_000);
    await first.start();
    await second.start();
    expect([first.held, second.held]).toEqual([true, false]);
    const released = Date.now();
    await first.stop();
    // Before: the second tried again at its renewal, a third of the TTL later (3.3 s).
    await expect.poll(() => second.held, { timeout: 5_000, interval: 20 }).toBe(true);
    expect(Date.now() - released).toBeLessThan(1_500);
    await second.stop();
  });

  it('tells a release that failed as a warning, once, however many times it is stopped', async () => {
    const own = await redis({ url: testRedisUrl!, prefix }).connect();
    const warnings: string[] = [];
    const lead = new Leadership(own.coordination, 'lost', 'lost-owner', 10_000, (code, message) =>
      warnings.push(`${code}: ${message}`),
    );
    await lead.start();
    expect(lead.held).toBe(true);
    // The connection is gone when the lead is let go (Redis down): the release fails.
    await own.close();
    // Before: the failure was swallowed, and the others waited the lock's 10 s with nothing said.
    await lead.stop();
    await lead.stop();
    expect(warnings).toEqual([expect.stringMatching(/^LEAD_RELEASE_FAILED: The lost lead was not let go .*10 s/)]);
    await connection.coordination.releaseLock('lost', 'lost-owner');
  });

  it('is let go by a closed engine, for the next process to take at once', async () => {
    const engine = new Crawlkit({ backend: redis({ url: testRedisUrl!, prefix }), engine: 'http' });
    await engine.startWorker();
    expect(await connection.coordination.tryLock('webhooks', 'next', 10_000)).toBe(false);
    await engine.close();
    // Before: the close let the lock go after closing its store, which failed, and the lead stayed with the closed
    // engine for the lock's 10 s (a worker's SIGTERM held every other process's webhooks that long).
    expect(await connection.coordination.tryLock('webhooks', 'next', 10_000)).toBe(true);
    await connection.coordination.releaseLock('webhooks', 'next');
  });
});
