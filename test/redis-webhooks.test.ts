/**
 * The webhook outbox on Redis after Redis stops answering for a while (found walking distributed mode as an
 * operator): the process delivering the outbox must go on once Redis answers again, with nothing else happening in
 * it. Before, a look at the outbox that met the outage planned no next look, and the events left were never sent
 * (the leader waited for a new event of its own to wake up; a finished job has none).
 */
import { randomUUID } from 'node:crypto';

import { redis } from '@crawlkit/redis';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ok, startReceiver, until, type Receiver } from './helpers-batch.ts';
import { ownRedisServer, stopOwnRedisServer, type RedisServer } from './setup/redis.ts';

const PAGES = 30;
/** Events of the batch: `started`, one per page, `completed`. */
const EVENTS = PAGES + 2;

/** Waits for every event of the batch, then checks that each page came once. */
async function expectEachPageOnce(events: Receiver): Promise<void> {
  await until(() => events.events.length >= EVENTS, 60_000);
  const sources = events.events.flatMap((e) => (e.payload.data ?? []).map((d) => d.metadata?.sourceURL));
  expect(sources).toHaveLength(PAGES);
  expect(new Set(sources).size).toBe(PAGES);
  expect(new Set(events.deliveryIds).size).toBe(events.deliveryIds.length);
}

let site: FixtureServer;
let receiver: Receiver;
let server: RedisServer | undefined;

beforeAll(async () => {
  site = await startFixtureServer();
  // Slow answers keep events waiting in the outbox while Redis is paused.
  receiver = await startReceiver({ delayMs: 150 });
  server = await ownRedisServer();
});

afterAll(async () => {
  await stopOwnRedisServer(server);
  await receiver.close();
  await site.close();
});

describe('webhook outbox on Redis', () => {
  it('delivers every event once Redis answers again after a pause', { timeout: 90_000 }, async () => {
    if (!server) return;
    const ck = new Crawlkit({
      backend: redis({ url: server.url, prefix: `ck-hooks-${randomUUID()}`, commandTimeoutMs: 1_000 }),
      engine: 'http',
    });
    try {
      await ck.startWorker();
      const urls = Array.from({ length: PAGES }, (_, i) => `${site.url}/?page=${i}`);
      const { id } = ok(await ck.batchScrape({ urls, webhook: { url: receiver.url } }));
      ok(await ck.waitForJob(id));
      await until(() => receiver.events.length >= 3, 30_000);
      expect(receiver.events.length).toBeLessThan(EVENTS);

      // Paused past the command timeout: a delivery's record and the next look at the outbox meet the outage.
      process.kill(server.pid, 'SIGSTOP');
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      process.kill(server.pid, 'SIGCONT');

      await expectEachPageOnce(receiver);
      expect(receiver.events.filter((e) => e.payload.type === 'batch_scrape.completed')).toHaveLength(1);
    } finally {
      await ck.close();
    }
  });
});

describe('closing a worker while the webhook outbox has a backlog', () => {
  for (const leader of ['submitter', 'worker'] as const) {
    it(`returns while events are left, each then sent once (the ${leader} leads)`, { timeout: 120_000 }, async () => {
      if (!server) return;
      const url = server.url;
      const prefix = `ck-hooks-${randomUUID()}`;
      const slow = await startReceiver({ delayMs: 200 });
      const submitter = new Crawlkit({ backend: redis({ url, prefix }), engine: 'http' });
      // A long attempt timeout: a close that sent the backlog, or waited for the leader to, would take up to 60 s.
      const worker = new Crawlkit({ backend: redis({ url, prefix }), engine: 'http', webhooks: { timeoutMs: 60_000 } });
      try {
        const urls = Array.from({ length: PAGES }, (_, i) => `${site.url}/?${leader}=${i}`);
        // The first engine to open takes the webhook leadership.
        if (leader === 'worker') await worker.startWorker();
        const { id } = ok(await submitter.batchScrape({ urls, webhook: { url: slow.url } }));
        if (leader === 'submitter') await worker.startWorker();
        ok(await submitter.waitForJob(id));
        await until(() => slow.events.length >= 2, 30_000);

        await worker.close();
        // Before, the close sent the backlog itself, or waited for the leader to send the events it queued (10 s
        // by default: SIGTERM of `crawlkit worker` took 10 s more whenever a job had webhooks).
        expect(slow.events.length).toBeLessThan(EVENTS);

        // The other process sends the rest (taking the outbox over when the worker led it).
        await expectEachPageOnce(slow);
      } finally {
        await worker.close();
        await submitter.close();
        await slow.close();
      }
    });
  }
});
