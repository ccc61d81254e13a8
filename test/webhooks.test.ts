/**
 * Webhooks end to end (reference §16): real receivers on 127.0.0.1 that check signatures, fail or stall their first
 * deliveries and count events. Deliveries pending across a restart or a kill -9: webhook-restarts.test.ts.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  Crawlkit,
  verifyWebhook,
  type BatchScrapeResponse,
  type CrawlErrorsResponse,
  type CrawlResponse,
  type JobStatusResponse,
} from 'crawlkit';
import { describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { ok, sleep, startReceiver, until } from './helpers-batch.ts';
import { SECRET, useWebhookSite } from './helpers/webhook-site.ts';

let server: FixtureServer;
let ck: Crawlkit;
useWebhookSite((started) => ({ server, ck } = started));

async function errorsOf(id: string): Promise<CrawlErrorsResponse['errors']> {
  const response = await ck.getBatchScrapeErrors(id);
  if ('success' in response) throw new Error(response.error);
  return response.errors;
}

describe('webhook deliveries', () => {
  it('delivers started, page and completed in order, signed, with the same id on retries', async () => {
    const receiver = await startReceiver({ failFirst: 2 });
    try {
      const urls = [`${server.url}/listing.html?hook=1`, `${server.url}/forum/thread.html?hook=1`];
      const started = ok<BatchScrapeResponse>(
        await ck.batchScrape({
          urls,
          webhook: { url: receiver.url, headers: { 'x-custom': 'yes' }, metadata: { run: 'r1' } },
        }),
      );
      await ck.waitForJob(started.id);
      await until(() => receiver.events.length >= 4);
      expect(receiver.events.map((e) => e.payload.type)).toEqual([
        'batch_scrape.started',
        'batch_scrape.page',
        'batch_scrape.page',
        'batch_scrape.completed',
      ]);
      expect(receiver.attempts).toBe(6);
      // The first event failed twice: three attempts, one delivery id.
      const ids = receiver.deliveryIds;
      expect(ids.slice(0, 3)).toEqual(Array(3).fill(receiver.events[0]!.payload.webhookId));
      expect(ids.slice(3)).toEqual(receiver.events.slice(1).map((e) => e.payload.webhookId));
      for (const { payload, raw, headers } of receiver.events) {
        expect(payload).toMatchObject({ id: started.id, metadata: { run: 'r1' } });
        expect(headers['x-custom']).toBe('yes');
        expect(headers['content-type']).toBe('application/json');
        const expected = `sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`;
        expect(headers['x-crawlkit-signature']).toBe(expected);
        expect(headers['x-firecrawl-signature']).toBe(expected);
        expect(headers['x-crawlkit-delivery']).toBe(payload.webhookId);
        expect(Math.abs(Number(headers['x-crawlkit-timestamp']) * 1000 - Date.now())).toBeLessThan(60_000);
        expect(verifyWebhook(raw, headers, SECRET)).toBe(true);
      }
      const [startedEvent, page, other, completed] = receiver.events.map((e) => e.payload);
      expect(startedEvent).toMatchObject({ success: true, data: [] });
      expect(completed).toMatchObject({ success: true, data: [] });
      expect(page!.success).toBe(true);
      expect(page!.data).toHaveLength(1);
      expect(
        [page, other].map((p) => (p!.data[0] as { metadata: { sourceURL: string } }).metadata.sourceURL).sort(),
      ).toEqual([...urls].sort());
      expect(new Set(receiver.events.map((e) => e.payload.webhookId)).size).toBe(4);
    } finally {
      await receiver.close();
    }
  });

  it("says it is crawlkit's webhook (User-Agent, Accept), not a browser, unless the webhook's own headers say otherwise", async () => {
    const version = (
      JSON.parse(
        readFileSync(fileURLToPath(new URL('../packages/crawlkit/package.json', import.meta.url)), 'utf8'),
      ) as { version: string }
    ).version;
    const plain = await startReceiver();
    const own = await startReceiver();
    try {
      const url = `${server.url}/listing.html?identity=1`;
      const jobs = [
        ok<BatchScrapeResponse>(
          await ck.batchScrape({ urls: [url], webhook: { url: plain.url, events: ['started'] } }),
        ),
        ok<BatchScrapeResponse>(
          await ck.batchScrape({
            urls: [url],
            webhook: { url: own.url, events: ['started'], headers: { 'User-Agent': 'hooks/2', Accept: 'text/plain' } },
          }),
        ),
      ];
      for (const job of jobs) await ck.waitForJob(job.id);
      await until(() => plain.events.length >= 1 && own.events.length >= 1);
      expect(plain.events[0]!.headers).toMatchObject({
        'user-agent': `crawlkit/${version} (webhook)`,
        accept: '*/*',
        'content-type': 'application/json',
      });
      // Its own headers only: none of the page fetcher's browser-like ones (Accept-Language, Accept-Encoding).
      expect(Object.keys(plain.events[0]!.headers).sort()).toEqual([
        'accept',
        'connection',
        'content-length',
        'content-type',
        'host',
        'user-agent',
        'x-crawlkit-delivery',
        'x-crawlkit-signature',
        'x-crawlkit-timestamp',
        'x-crawlkit-timestamp-signature',
        'x-firecrawl-signature',
      ]);
      expect(own.events[0]!.headers).toMatchObject({ 'user-agent': 'hooks/2', accept: 'text/plain' });
    } finally {
      await plain.close();
      await own.close();
    }
  });

  it('verifyWebhook rejects a wrong secret, an altered body or header, and a stale or replayed timestamp', async () => {
    const receiver = await startReceiver();
    try {
      const started = ok<BatchScrapeResponse>(
        await ck.batchScrape({
          urls: [`${server.url}/listing.html?v=1`],
          webhook: { url: receiver.url, events: ['started'] },
        }),
      );
      await until(() => receiver.events.length === 1);
      const { raw, headers } = receiver.events[0]!;
      const sentAt = Number(headers['x-crawlkit-timestamp']) * 1000;
      expect(verifyWebhook(raw, headers, SECRET)).toBe(true);
      expect(verifyWebhook(Buffer.from(raw), new Headers(headers as Record<string, string>), SECRET)).toBe(true);
      expect(verifyWebhook(raw, headers, 'another-secret')).toBe(false);
      expect(verifyWebhook(raw.replace('"success":true', '"success":false'), headers, SECRET)).toBe(false);
      expect(verifyWebhook(raw, { ...headers, 'x-crawlkit-timestamp': String(sentAt / 1000 + 1) }, SECRET)).toBe(false);
      expect(verifyWebhook(raw, { ...headers, 'x-crawlkit-delivery': crypto.randomUUID() }, SECRET)).toBe(false);
      expect(verifyWebhook(raw, { ...headers, 'x-crawlkit-signature': undefined }, SECRET)).toBe(false);
      // The same delivery ten minutes later is a replay.
      expect(verifyWebhook(raw, headers, SECRET, { now: sentAt + 600_000 })).toBe(false);
      expect(verifyWebhook(raw, headers, SECRET, { now: sentAt + 600_000, toleranceSeconds: 900 })).toBe(true);
      await ck.waitForJob(started.id);
    } finally {
      await receiver.close();
    }
  });

  it('filters events and reports a failed page as a page event with success false', async () => {
    const receiver = await startReceiver();
    try {
      const started = ok<BatchScrapeResponse>(
        await ck.batchScrape({
          urls: ['http://127.0.0.1:1/nothing', `${server.url}/listing.html?filter=1`],
          webhook: { url: receiver.url, events: ['page'] },
          maxConcurrency: 1,
        }),
      );
      await ck.waitForJob(started.id);
      await until(() => receiver.events.length >= 2);
      await sleep(200);
      expect(receiver.events.map((e) => e.payload.type)).toEqual(['batch_scrape.page', 'batch_scrape.page']);
      const failed = receiver.events.find((e) => !e.payload.success)!.payload;
      expect(failed).toMatchObject({ data: [{ metadata: { sourceURL: 'http://127.0.0.1:1/nothing' } }] });
      expect(failed.error).toBeTruthy();
      expect(receiver.events.filter((e) => e.payload.success)).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('gives up after maxAttempts on 5xx and records the undelivered events in the job errors', async () => {
    const receiver = await startReceiver({ status: 500 });
    try {
      const started = ok<BatchScrapeResponse>(
        await ck.batchScrape({
          urls: [`${server.url}/listing.html?give-up=1`],
          webhook: { url: receiver.url, events: ['started', 'completed'] },
        }),
      );
      const done = ok<JobStatusResponse>(await ck.waitForJob(started.id));
      expect(done.data).toHaveLength(1);
      await until(async () => (await errorsOf(started.id)).length === 2);
      expect(receiver.attempts).toBe(8);
      const errors = await errorsOf(started.id);
      expect(errors.map((e) => e.code)).toEqual(['WEBHOOK_DELIVERY_FAILED', 'WEBHOOK_DELIVERY_FAILED']);
      expect(errors[0]!.error).toMatch(/batch_scrape\.started .*4 attempts.*HTTP 500/);
      expect(errors[1]!.error).toMatch(/batch_scrape\.completed/);
    } finally {
      await receiver.close();
    }
  });

  it('does not retry a 4xx answer, and times out a receiver that never answers', async () => {
    const rejecting = await startReceiver({ status: 410 });
    const hanging = await startReceiver({ hang: true });
    const quick = new Crawlkit({
      store: 'memory',
      engine: 'http',
      webhooks: { timeoutMs: 300, retryDelayMs: 20, maxAttempts: 2 },
    });
    try {
      const a = ok<BatchScrapeResponse>(
        await quick.batchScrape({
          urls: [`${server.url}/listing.html`],
          webhook: { url: rejecting.url, events: ['started'] },
        }),
      );
      const b = ok<BatchScrapeResponse>(
        await quick.batchScrape({
          urls: [`${server.url}/listing.html`],
          webhook: { url: hanging.url, events: ['started'] },
        }),
      );
      const errorsOfQuick = async (id: string) => {
        const response = await quick.getBatchScrapeErrors(id);
        return 'errors' in response ? response.errors : [];
      };
      await until(async () => (await errorsOfQuick(a.id)).length === 1 && (await errorsOfQuick(b.id)).length === 1);
      expect(rejecting.attempts).toBe(1);
      expect((await errorsOfQuick(a.id))[0]!.error).toMatch(/after 1 attempt: .*HTTP 410/);
      expect(hanging.attempts).toBe(2);
      expect((await errorsOfQuick(b.id))[0]!.error).toMatch(/2 attempts.*tim/i);
    } finally {
      await quick.close();
      await rejecting.close();
      await hanging.close();
    }
  });

  it('never slows scraping: a batch finishes while its receiver stalls every delivery', async () => {
    // The receiver holds every delivery until the engine's webhook timeout (2 s) gives it up, four times an event.
    const stalling = await startReceiver({ hang: true });
    try {
      const urls = Array.from({ length: 12 }, (_, i) => `${server.url}/slow/s${i}?ms=5`);
      const started = ok<BatchScrapeResponse>(await ck.batchScrape({ urls, webhook: stalling.url }));
      expect(ok(await ck.waitForJob(started.id))).toMatchObject({ status: 'completed', completed: 12 });
      // Events go one at a time, each held ~8 s: a batch that waited for them would finish after its 13th event was
      // sent (~100 s). Before: a count of events answered within the first 3 s, which a loaded machine's batch
      // outlasted (4.9 s).
      expect(new Set(stalling.deliveryIds).size).toBeLessThan(13);
    } finally {
      await stalling.close();
    }
  });

  it('sends a job one event at a time, in order, while several jobs deliver at once', async () => {
    const receiver = await startReceiver({ delayMs: () => Math.floor(Math.random() * 15) });
    try {
      const ids: string[] = [];
      for (let j = 0; j < 3; j++) {
        const urls = Array.from({ length: 8 }, (_, i) => `${server.url}/slow/o${j}-${i}?ms=2`);
        ids.push(ok<BatchScrapeResponse>(await ck.batchScrape({ urls, webhook: receiver.url })).id);
      }
      for (const id of ids) await ck.waitForJob(id);
      await until(() => receiver.events.length === 30);
      expect(receiver.maxInFlight).toBeGreaterThan(1);
      for (const id of ids) {
        const types = receiver.events.filter((e) => e.payload.id === id).map((e) => e.payload.type);
        expect(types).toEqual([
          'batch_scrape.started',
          ...Array(8).fill('batch_scrape.page'),
          'batch_scrape.completed',
        ]);
      }
    } finally {
      await receiver.close();
    }
  });

  it('close() right after a job ends sends its last events first (a one-shot process, crawlkit crawl --webhook)', async () => {
    const receiver = await startReceiver({ delayMs: 30 });
    const storeDir = mkdtempSync(join(tmpdir(), 'ck-webhooks-close-'));
    try {
      const once = new Crawlkit({ storeDir, engine: 'http', webhooks: { secret: SECRET } });
      const urls = [`${server.url}/listing.html?close=1`, `${server.url}/forum/thread.html?close=1`];
      const started = ok<BatchScrapeResponse>(await once.batchScrape({ urls, webhook: receiver.url }));
      ok<JobStatusResponse>(await once.waitForJob(started.id));
      await once.close();
      // Before, the completed event stayed in the outbox until the next engine on the store started.
      expect(receiver.events.map((e) => e.payload.type)).toEqual([
        'batch_scrape.started',
        'batch_scrape.page',
        'batch_scrape.page',
        'batch_scrape.completed',
      ]);
    } finally {
      await receiver.close();
      rmSync(storeDir, { recursive: true, force: true });
    }
  });

  it('notifies crawl webhooks with crawl.* events', async () => {
    const receiver = await startReceiver();
    try {
      const started = ok<CrawlResponse>(
        await ck.crawl({ url: `${server.url}/`, limit: 3, crawlEntireDomain: true, webhook: receiver.url }),
      );
      await ck.waitForJob(started.id);
      await until(() => receiver.events.some((e) => e.payload.type === 'crawl.completed'));
      const types = receiver.events.map((e) => e.payload.type);
      expect(types[0]).toBe('crawl.started');
      expect(types.at(-1)).toBe('crawl.completed');
      expect(types.filter((t) => t === 'crawl.page')).toHaveLength(3);
    } finally {
      await receiver.close();
    }
  });
});
