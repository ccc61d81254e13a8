import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit, type ErrorResponse, type WebhookPayload } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';

let server: FixtureServer;
let ck: Crawlkit;
let dir: string;

interface Receiver {
  url: string;
  events: { payload: WebhookPayload; signature: string | undefined; headers: Record<string, unknown> }[];
  failFirst: number;
  close(): Promise<void>;
}

/** A real webhook receiver on 127.0.0.1 that can fail its first deliveries. */
async function startReceiver(failFirst = 0): Promise<Receiver> {
  const events: Receiver['events'] = [];
  let seen = 0;
  const http: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen++;
      if (seen <= receiver.failFirst) {
        res.writeHead(503).end();
        return;
      }
      events.push({
        payload: JSON.parse(body) as WebhookPayload,
        signature: req.headers['x-firecrawl-signature'] as string | undefined,
        headers: req.headers,
      });
      (events.at(-1) as { raw?: string }).raw = body;
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const receiver: Receiver = {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/hook`,
    events,
    failFirst,
    close: () => new Promise((r) => http.close(() => r())),
  };
  return receiver;
}

beforeAll(async () => {
  server = await startFixtureServer();
  dir = mkdtempSync(join(tmpdir(), 'ck-jobs-'));
  ck = new Crawlkit({ storeDir: dir, engine: 'http', webhooks: { secret: 'shh', timeoutMs: 2000 } });
});

afterAll(async () => {
  await ck.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function ok<T extends { success: boolean }>(value: T): Exclude<T, ErrorResponse> {
  if (!value.success) throw new Error(`unexpected error: ${(value as unknown as ErrorResponse).error}`);
  return value as Exclude<T, ErrorResponse>;
}

describe('batch scrape', () => {
  it('scrapes every URL, keeps the sourceURL as sent, and pages through results', async () => {
    const urls = ['/articles/first-post.html', '/docs/getting-started.html', '/forum/thread.html', '/listing.html'].map(
      (p) => `${server.url}${p}`,
    );
    urls.push(`${server.url}/products/widget.html?pagewanted=all&x`);
    const started = ok(await ck.batchScrape({ urls, formats: ['markdown', 'links'] }));
    expect(started.url).toBe(`crawlkit://v2/batch/scrape/${started.id}`);
    expect(started.invalidURLs).toBeUndefined();

    const done = ok(await ck.waitForJob(started.id));
    expect(done.status).toBe('completed');
    expect(done.total).toBe(5);
    expect(done.completed).toBe(5);
    expect(done.creditsUsed).toBe(5);
    expect(done.data.map((d) => d.metadata.sourceURL).sort()).toEqual([...urls].sort());
    expect(done.data.every((d) => d.markdown && d.links)).toBe(true);

    const page1 = ok(await ck.getBatchScrapeStatus(started.id, { limit: 2 }));
    expect(page1.data).toHaveLength(2);
    expect(page1.next).toContain('skip=2');
    const page2 = ok(await ck.getBatchScrapeStatus(page1.next!));
    expect(page2.data).toHaveLength(2);
    const page3 = ok(await ck.getBatchScrapeStatus(page2.next!));
    expect(page3.data).toHaveLength(1);
    expect(page3.next).toBeUndefined();
    expect(new Date(page1.expiresAt).getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
  });

  it('drops invalid URLs with ignoreInvalidURLs, rejects them otherwise', async () => {
    const good = `${server.url}/listing.html`;
    const kept = ok(await ck.batchScrape({ urls: [good, 'not a url', 'ftp://x.test/f'], ignoreInvalidURLs: true }));
    expect(kept.invalidURLs).toEqual(['not a url', 'ftp://x.test/f']);
    const none = ok(await ck.batchScrape({ urls: [good], ignoreInvalidURLs: true }));
    expect(none.invalidURLs).toEqual([]);
    const rejected = await ck.batchScrape({ urls: [good, 'not a url'] });
    expect(rejected).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(await ck.batchScrape({ urls: ['not a url'], ignoreInvalidURLs: true })).toMatchObject({
      success: false,
      error: 'No valid URLs provided',
    });
    await ck.waitForJob(kept.id);
    await ck.waitForJob(none.id);
  });

  it('records failed pages in errors and still completes', async () => {
    const started = ok(await ck.batchScrape({ urls: [`${server.url}/listing.html`, 'http://127.0.0.1:1/refused'] }));
    const done = ok(await ck.waitForJob(started.id));
    expect(done.completed).toBe(2);
    expect(done.data).toHaveLength(1);
    const errors = await ck.getBatchScrapeErrors(started.id);
    if ('success' in errors) throw new Error(errors.error);
    expect(errors.errors).toHaveLength(1);
    expect(errors.errors[0]?.url).toBe('http://127.0.0.1:1/refused');
  });

  it('cancels at once and reports cancelled', async () => {
    const urls = Array.from({ length: 40 }, (_, i) => `${server.url}/listing.html?n=${i}`);
    const started = ok(await ck.batchScrape({ urls, maxConcurrency: 1 }));
    expect(await ck.cancelBatchScrape(started.id)).toEqual({ status: 'cancelled' });
    const status = ok(await ck.getBatchScrapeStatus(started.id));
    expect(status.status).toBe('cancelled');
    expect(status.completed).toBeLessThan(40);
    expect(await ck.cancelBatchScrape('00000000-0000-7000-8000-000000000000')).toMatchObject({
      success: false,
      error: 'Job not found',
    });
    expect(await ck.getBatchScrapeStatus('not-a-uuid')).toMatchObject({
      success: false,
      error: 'Invalid job ID format. Job ID must be a valid UUID.',
    });
  });

  it('streams documents with watch()', async () => {
    const urls = ['/articles/first-post.html', '/listing.html', '/forum/thread.html'].map(
      (p) => `${server.url}${p}?w=1`,
    );
    const started = ok(await ck.batchScrape({ urls }));
    const seen: string[] = [];
    for await (const doc of ck.watch(started.id)) seen.push(doc.metadata.sourceURL);
    expect(seen.sort()).toEqual([...urls].sort());
  });
});

describe('webhooks', () => {
  it('delivers started, page and completed in order, signed, retrying failures', async () => {
    const receiver = await startReceiver(2);
    try {
      const urls = [`${server.url}/listing.html?hook=1`, `${server.url}/forum/thread.html?hook=1`];
      const started = ok(
        await ck.batchScrape({
          urls,
          webhook: { url: receiver.url, headers: { 'x-custom': 'yes' }, metadata: { run: 'r1' } },
        }),
      );
      await ck.waitForJob(started.id);
      const deadline = Date.now() + 20_000;
      while (receiver.events.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const types = receiver.events.map((e) => e.payload.type);
      expect(types).toEqual([
        'batch_scrape.started',
        'batch_scrape.page',
        'batch_scrape.page',
        'batch_scrape.completed',
      ]);
      for (const event of receiver.events) {
        expect(event.payload.id).toBe(started.id);
        expect(event.payload.metadata).toEqual({ run: 'r1' });
        expect(event.headers['x-custom']).toBe('yes');
        const raw = (event as { raw?: string }).raw!;
        expect(event.signature).toBe(`sha256=${createHmac('sha256', 'shh').update(raw).digest('hex')}`);
      }
      const page = receiver.events[1]!.payload;
      expect(page.success).toBe(true);
      expect(page.data).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('filters events and reports a failed page as a page event with success false', async () => {
    const receiver = await startReceiver();
    try {
      const started = ok(
        await ck.batchScrape({
          urls: ['http://127.0.0.1:1/nothing'],
          webhook: { url: receiver.url, events: ['page'] },
        }),
      );
      await ck.waitForJob(started.id);
      const deadline = Date.now() + 10_000;
      while (receiver.events.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.events).toHaveLength(1);
      expect(receiver.events[0]!.payload).toMatchObject({
        type: 'batch_scrape.page',
        success: false,
        data: [{ metadata: { sourceURL: 'http://127.0.0.1:1/nothing' } }],
      });
      expect(receiver.events[0]!.payload.error).toBeTruthy();
    } finally {
      await receiver.close();
    }
  });
});

describe('crawl', () => {
  it('follows links in scope, respects limit, and lists itself while active', async () => {
    const started = ok(await ck.crawl({ url: `${server.url}/`, limit: 5, crawlEntireDomain: true }));
    expect(started.url).toBe(`crawlkit://v2/crawl/${started.id}`);
    const active = ok(await ck.getActiveCrawls());
    expect(active.crawls.map((c) => c.id)).toContain(started.id);
    const done = ok(await ck.waitForJob(started.id));
    expect(done.status).toBe('completed');
    expect(done.total).toBe(5);
    expect(done.data.length).toBeGreaterThanOrEqual(4);
    const sources = done.data.map((d) => d.metadata.sourceURL);
    expect(sources).toContain(`${server.url}/`);
    expect(new Set(sources).size).toBe(sources.length);
    const after = ok(await ck.getActiveCrawls());
    expect(after.crawls.map((c) => c.id)).not.toContain(started.id);
  });

  it('keeps to the seed directory without crawlEntireDomain', async () => {
    const started = ok(await ck.crawl({ url: `${server.url}/articles/first-post.html`, limit: 20 }));
    const done = ok(await ck.waitForJob(started.id));
    for (const doc of done.data) expect(new URL(doc.metadata.sourceURL).pathname).toMatch(/^\/articles\//);
    expect(done.data.length).toBeGreaterThanOrEqual(2);
  });

  it('rejects invalid path regexes', async () => {
    const response = await ck.crawl({ url: `${server.url}/`, includePaths: ['(unclosed'] });
    expect(response).toMatchObject({ success: false, code: 'BAD_REQUEST' });
  });
});
