/**
 * Webhooks end to end (reference §16): real receivers on 127.0.0.1 that check signatures, fail or stall their first
 * deliveries and count events; a restart in the middle of a batch with deliveries pending.
 */
import { spawn, type ChildProcess } from 'node:child_process';
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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ensureBuilt } from './cli-helpers.ts';
import { freePort, ok, sleep, slowRoutes, startReceiver, until, type Receiver } from './helpers-batch.ts';

const SECRET = 'whsec-test';
let server: FixtureServer;
let ck: Crawlkit;
let dir: string;
const slow = slowRoutes();

beforeAll(async () => {
  ensureBuilt();
  server = await startFixtureServer({ routes: slow.routes });
  dir = mkdtempSync(join(tmpdir(), 'ck-webhooks-'));
  ck = new Crawlkit({
    storeDir: dir,
    engine: 'http',
    webhooks: { secret: SECRET, timeoutMs: 2000, retryDelayMs: 50, maxAttempts: 4 },
  });
});

afterAll(async () => {
  await ck.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

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

describe('pending deliveries survive a restart', () => {
  it('delivers every event exactly once and in order after the engine is closed mid-batch and started again', async () => {
    const storeDir = mkdtempSync(join(tmpdir(), 'ck-webhooks-restart-'));
    const port = await freePort();
    const hook = `http://127.0.0.1:${port}/hook`;
    const urls = Array.from({ length: 20 }, (_, i) => `${server.url}/slow/r${i}?ms=40`);
    const webhooks = { secret: SECRET, retryDelayMs: 30, maxRetryDelayMs: 100, maxAttempts: 1000, timeoutMs: 1000 };
    let receiver: Receiver | undefined;
    let second: Crawlkit | undefined;
    try {
      // The receiver is down: every event of the first engine stays pending in the store.
      const first = new Crawlkit({ storeDir, engine: 'http', webhooks });
      const started = ok<BatchScrapeResponse>(await first.batchScrape({ urls, maxConcurrency: 2, webhook: hook }));
      await until(async () => ok<JobStatusResponse>(await first.getBatchScrapeStatus(started.id)).completed >= 5);
      await first.close();
      const before = ok<JobStatusResponse>(
        await (async () => {
          const peek = new Crawlkit({ storeDir, engine: 'http' });
          try {
            return await peek.getBatchScrapeStatus(started.id);
          } finally {
            await peek.close();
          }
        })(),
      );
      expect(before.status).toBe('scraping');
      expect(before.completed).toBeLessThan(20);

      // A new engine on the same store resumes the batch; the receiver comes up on the same port.
      second = new Crawlkit({ storeDir, engine: 'http', resumeJobs: true, webhooks });
      receiver = await startReceiver({ port });
      const done = ok<JobStatusResponse>(await second.waitForJob(started.id));
      expect(done).toMatchObject({ status: 'completed', total: 20, completed: 20 });
      await until(() => receiver!.events.some((e) => e.payload.type === 'batch_scrape.completed'), 20_000);
      await sleep(300);

      const events = receiver.events;
      expect(events).toHaveLength(22);
      expect(new Set(events.map((e) => e.payload.webhookId)).size).toBe(22);
      expect(events[0]!.payload.type).toBe('batch_scrape.started');
      expect(events.at(-1)!.payload.type).toBe('batch_scrape.completed');
      const pages = events.slice(1, -1).map((e) => {
        expect(e.payload.type).toBe('batch_scrape.page');
        return (e.payload.data[0] as { metadata: { sourceURL: string } }).metadata.sourceURL;
      });
      expect([...pages].sort()).toEqual([...urls].sort());
      for (const { raw, headers } of events) expect(verifyWebhook(raw, headers, SECRET)).toBe(true);
    } finally {
      await second?.close();
      await receiver?.close();
      rmSync(storeDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('a job keeps the secret it was started with', () => {
  it('signs its events with it when another engine, started without a secret, sends them', async () => {
    const storeDir = mkdtempSync(join(tmpdir(), 'ck-webhooks-sealed-secret-'));
    const port = await freePort();
    const hook = `http://127.0.0.1:${port}/hook`;
    const urls = Array.from({ length: 10 }, (_, i) => `${server.url}/slow/s${i}?ms=40`);
    const webhooks = { retryDelayMs: 30, maxRetryDelayMs: 100, maxAttempts: 1000, timeoutMs: 1000 };
    let receiver: Receiver | undefined;
    let second: Crawlkit | undefined;
    try {
      // Started with the secret, the receiver down: the first events stay queued in the store.
      const first = new Crawlkit({ storeDir, engine: 'http', webhooks: { ...webhooks, secret: SECRET } });
      const started = ok<BatchScrapeResponse>(await first.batchScrape({ urls, maxConcurrency: 1, webhook: hook }));
      await until(async () => ok<JobStatusResponse>(await first.getBatchScrapeStatus(started.id)).completed >= 3);
      await first.close();

      // Resumed without it: the events queued by the first engine and those it queues itself are signed.
      second = new Crawlkit({ storeDir, engine: 'http', resumeJobs: true, webhooks });
      receiver = await startReceiver({ port, verifySecret: SECRET });
      ok<JobStatusResponse>(await second.waitForJob(started.id));
      await until(() => receiver!.events.some((e) => e.payload.type === 'batch_scrape.completed'), 20_000);
      expect(receiver.events).toHaveLength(12);
      expect(receiver.attempts).toBe(12);
      expect(await second.getBatchScrapeErrors(started.id)).toMatchObject({ errors: [] });

      // A job the second engine starts itself has no secret to sign with.
      const unsigned = await startReceiver();
      try {
        const own = ok<BatchScrapeResponse>(
          await second.batchScrape({ urls: [urls[0]!], webhook: { url: unsigned.url, events: ['started'] } }),
        );
        await until(() => unsigned.events.length === 1);
        expect(unsigned.events[0]!.headers['x-crawlkit-signature']).toBeUndefined();
        await second.waitForJob(own.id);
      } finally {
        await unsigned.close();
      }
    } finally {
      await second?.close();
      await receiver?.close();
      rmSync(storeDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('a job whose secret cannot be opened where its events are sent', () => {
  it("signs them with the sending engine's own secret (persistSecrets: false, then a restart)", async () => {
    const storeDir = mkdtempSync(join(tmpdir(), 'ck-webhooks-memory-secret-'));
    const port = await freePort();
    const webhooks = { secret: SECRET, retryDelayMs: 30, maxRetryDelayMs: 100, maxAttempts: 1000, timeoutMs: 1000 };
    let receiver: Receiver | undefined;
    let second: Crawlkit | undefined;
    try {
      // The secret is sealed with a key kept in the first engine's memory: no later engine can open it.
      const first = new Crawlkit({ storeDir, engine: 'http', persistSecrets: false, webhooks });
      const urls = [`${server.url}/slow/m1?ms=10`, `${server.url}/slow/m2?ms=10`];
      const started = ok<BatchScrapeResponse>(
        await first.batchScrape({ urls, webhook: `http://127.0.0.1:${port}/hook` }),
      );
      await first.waitForJob(started.id);
      await first.close();

      receiver = await startReceiver({ port, verifySecret: SECRET });
      second = new Crawlkit({ storeDir, engine: 'http', resumeJobs: true, webhooks });
      await until(() => receiver!.events.some((e) => e.payload.type === 'batch_scrape.completed'), 20_000);
      expect(receiver.events).toHaveLength(4);
    } finally {
      await second?.close();
      await receiver?.close();
      rmSync(storeDir, { recursive: true, force: true });
    }
  }, 60_000);
});

/** A child engine running from the sources; resolves `ready` with its first stdout line. */
function spawnChild(args: string[]): { child: ChildProcess; ready: Promise<string> } {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const child = spawn(
    process.execPath,
    ['--import', join(here, 'helpers', 'built-hooks.ts'), join(here, 'helpers-webhooks-child.ts'), ...args],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let stdout = '';
  const ready = new Promise<string>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
    });
    child.on('exit', () => resolve(''));
  });
  return { child, ready };
}

describe('pending deliveries survive kill -9', () => {
  it('delivers every event exactly once after the process is killed mid-batch and a new one resumes', async () => {
    const storeDir = mkdtempSync(join(tmpdir(), 'ck-webhooks-kill-'));
    const port = await freePort();
    const urls = Array.from({ length: 16 }, (_, i) => `${server.url}/slow/k${i}?ms=60`);
    const children: ChildProcess[] = [];
    let receiver: Receiver | undefined;
    try {
      slow.stats.served = 0;
      const first = spawnChild(['start', storeDir, `http://127.0.0.1:${port}/hook`, ...urls]);
      children.push(first.child);
      const id = await first.ready;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      // Killed while pages are in flight: some were scraped and their events queued, none delivered (receiver down).
      await until(() => slow.stats.served >= 5, 30_000);
      first.child.kill('SIGKILL');
      await new Promise((r) => first.child.once('exit', r));

      const second = spawnChild(['resume', storeDir]);
      children.push(second.child);
      expect(await second.ready).toBe('resumed');
      receiver = await startReceiver({ port });
      await until(() => receiver!.events.some((e) => e.payload.type === 'batch_scrape.completed'), 40_000);
      await sleep(300);

      const events = receiver.events;
      expect(new Set(events.map((e) => e.payload.webhookId)).size).toBe(events.length);
      expect(events[0]!.payload.type).toBe('batch_scrape.started');
      expect(events.at(-1)!.payload.type).toBe('batch_scrape.completed');
      const pages = events
        .slice(1, -1)
        .map((e) => (e.payload.data[0] as { metadata: { sourceURL: string } }).metadata.sourceURL);
      expect([...pages].sort()).toEqual([...urls].sort());
      for (const { raw, headers, payload } of events) {
        expect(payload.id).toBe(id);
        expect(verifyWebhook(raw, headers, 'kill-secret')).toBe(true);
      }
    } finally {
      for (const child of children) child.kill('SIGKILL');
      await receiver?.close();
      rmSync(storeDir, { recursive: true, force: true });
    }
  }, 90_000);
});
