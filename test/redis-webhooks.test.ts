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
import { startRedisServer, type RedisServer } from './setup/redis.ts';

const PAGES = 30;
/** Events of the batch: `started`, one per page, `completed`. */
const EVENTS = PAGES + 2;

let site: FixtureServer;
let receiver: Receiver;
let server: RedisServer | undefined;

beforeAll(async () => {
  site = await startFixtureServer();
  // Slow answers keep events waiting in the outbox while Redis is paused.
  receiver = await startReceiver({ delayMs: 150 });
  server = await startRedisServer();
  if (!server && process.env.CRAWLKIT_REQUIRE_REDIS === '1') throw new Error('redis-server could not be started');
});

afterAll(async () => {
  if (server) {
    try {
      process.kill(server.pid, 'SIGCONT');
    } catch {
      // already gone
    }
    await server.stop();
  }
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

      await until(() => receiver.events.length >= EVENTS, 60_000);
      const types = receiver.events.map((e) => e.payload.type);
      expect(types.filter((t) => t === 'batch_scrape.page')).toHaveLength(PAGES);
      expect(types.filter((t) => t === 'batch_scrape.completed')).toHaveLength(1);
      const sources = receiver.events.flatMap((e) => (e.payload.data ?? []).map((d) => d.metadata?.sourceURL));
      expect(new Set(sources).size).toBe(PAGES);
    } finally {
      await ck.close();
    }
  });
});

describe('a worker that does not lead the webhook outbox', () => {
  it('closes without waiting to send events that the leader sends', { timeout: 120_000 }, async () => {
    if (!server) return;
    const prefix = `ck-hooks-${randomUUID()}`;
    const slow = await startReceiver({ delayMs: 500 });
    // Opened first, the submitter takes the webhook leadership and sends every event.
    const submitter = new Crawlkit({ backend: redis({ url: server.url, prefix }), engine: 'http' });
    // A long attempt timeout: a close that waited to send the events it queued would wait this long.
    const worker = new Crawlkit({
      backend: redis({ url: server.url, prefix }),
      engine: 'http',
      webhooks: { timeoutMs: 60_000 },
    });
    try {
      const urls = Array.from({ length: PAGES }, (_, i) => `${site.url}/?lead=${i}`);
      const { id } = ok(await submitter.batchScrape({ urls, webhook: { url: slow.url } }));
      await worker.startWorker();
      ok(await submitter.waitForJob(id));
      expect(slow.events.length).toBeLessThan(EVENTS);

      await worker.close();
      // Closed while the leader still sends: before, the close waited for it (up to the attempt timeout, 60 s here;
      // 10 s by default, so SIGTERM of `crawlkit worker` took 10 s more whenever a job had webhooks).
      expect(slow.events.length).toBeLessThan(EVENTS);

      await until(() => slow.events.length >= EVENTS, 60_000);
      const sources = slow.events.flatMap((e) => (e.payload.data ?? []).map((d) => d.metadata?.sourceURL));
      expect(sources).toHaveLength(PAGES);
      expect(new Set(sources).size).toBe(PAGES);
    } finally {
      await worker.close();
      await submitter.close();
      await slow.close();
    }
  });
});

describe('a process that leads the webhook outbox', () => {
  it(
    'hands it over at close instead of sending its backlog, and each event goes once',
    { timeout: 120_000 },
    async () => {
      if (!server) return;
      const prefix = `ck-hooks-${randomUUID()}`;
      const slow = await startReceiver({ delayMs: 500 });
      // Opened first, the worker takes the webhook leadership; a close that sent its backlog would take up to 60 s.
      const worker = new Crawlkit({
        backend: redis({ url: server.url, prefix }),
        engine: 'http',
        webhooks: { timeoutMs: 60_000 },
      });
      await worker.startWorker();
      const submitter = new Crawlkit({ backend: redis({ url: server.url, prefix }), engine: 'http' });
      try {
        const urls = Array.from({ length: PAGES }, (_, i) => `${site.url}/?leader=${i}`);
        const { id } = ok(await submitter.batchScrape({ urls, webhook: { url: slow.url } }));
        ok(await submitter.waitForJob(id));
        await until(() => slow.events.length >= 2, 30_000);

        await worker.close();
        expect(slow.events.length).toBeLessThan(EVENTS);

        // The submitter takes the outbox over; no event is sent twice, none is lost.
        await until(() => slow.events.length >= EVENTS, 60_000);
        const sources = slow.events.flatMap((e) => (e.payload.data ?? []).map((d) => d.metadata?.sourceURL));
        expect(sources).toHaveLength(PAGES);
        expect(new Set(sources).size).toBe(PAGES);
        expect(new Set(slow.deliveryIds).size).toBe(slow.deliveryIds.length);
      } finally {
        await worker.close();
        await submitter.close();
        await slow.close();
      }
    },
  );
});
