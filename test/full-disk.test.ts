/**
 * A full disk mid-batch loses nothing (issue 38, finding 5). The store lives on a 32 MB tmpfs filled to leave ~2 MB;
 * a 60-page batch (~100 KB a page, with a webhook) fills it, writes fail with `STORE_IO`, and the space comes back two
 * seconds later. Then:
 * - every webhook event is POSTed once: a delivery whose state could not be written is neither re-sent nor counted
 *   again (before: one event was re-sent thousands of times, ignoring `maxAttempts` and its back-off);
 * - the job goes on by itself once space returns, and completes with every page (before: stuck at `scraping`);
 * - no page is failed for the store's fault (before: its error was `STORE_IO` and it was never retried);
 * - while the disk is full, the job's status has a `warning` naming the fault (before: `scraping`, nothing said), and
 *   what ends the wait here: room in the store or a cancel (before: the workers' `storeFaultTimeoutMs`, no option here).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Crawlkit, type JobStatusResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ok, sleep, startReceiver, type Receiver } from './helpers-batch.ts';
import { smallDisk, type SmallDisk } from './helpers/small-disk.ts';

const PAGES = 60;
const disk = smallDisk(32);
let site: Server;
let origin: string;
let receiver: Receiver;

/** ~100 KB of article text: the page's cache entry and its result take ~200 KB of the store. */
function page(n: number): string {
  const paragraph = `<p>Paragraph of page ${n}, long enough to be content of the article and to fill a disk. </p>`;
  return `<!doctype html><html><head><title>Page ${n}</title></head><body><main><h1>Page ${n}</h1>${paragraph.repeat(
    1000,
  )}</main></body></html>`;
}

beforeAll(async () => {
  site = createServer((req, res) => {
    const n = Number(req.url?.slice(1));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(n));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  receiver = await startReceiver();
});
afterAll(async () => {
  await new Promise<void>((resolve) => site.close(() => resolve()));
  await receiver.close();
  disk?.unmount();
});

describe.skipIf(!disk)('a full disk mid-batch', () => {
  it('re-sends no webhook, goes on once space returns, and fails no page for it', { timeout: 120_000 }, async () => {
    const small = disk as SmallDisk;
    const ck = new Crawlkit({
      storeDir: small.dir,
      engine: 'http',
      concurrency: 4,
      webhooks: { maxAttempts: 3, retryDelayMs: 100, timeoutMs: 2_000 },
    });
    const storeFaults: string[] = [];
    ck.on('error', ({ error }) => {
      if (error.code === 'STORE_IO' || /SQLite failed/.test(error.error)) storeFaults.push(error.error);
    });
    try {
      // The store exists (its files and first pages) before the disk is filled.
      ok(await ck.scrape({ url: `${origin}/0`, formats: ['markdown'] }));
      small.fill(2 * 1024 ** 2);
      const { id } = ok(
        await ck.batchScrape({
          urls: Array.from({ length: PAGES }, (_, i) => `${origin}/${i + 1}`),
          formats: ['markdown'],
          webhook: receiver.url,
        }),
      );
      const deadline = Date.now() + 30_000;
      while (storeFaults.length === 0 && Date.now() < deadline) await sleep(50);
      expect(storeFaults.length, 'the disk filled up').toBeGreaterThan(0);
      // The job's status says why it does not move (before: `scraping`, and not a word of the disk).
      let stalled: JobStatusResponse | undefined;
      for (let i = 0; i < 100 && !stalled?.warning; i++) {
        stalled = ok(await ck.getBatchScrapeStatus(id, { limit: 1 }));
        if (!stalled.warning) await sleep(50);
      }
      expect(stalled?.status).toBe('scraping');
      expect(stalled?.warning).toMatch(/waiting on its store: since \S+ .*\(STORE_IO: /);
      // Run in this process, on the embedded store: nothing but room or a cancel ends the wait, and the warning says
      // those, not the workers' storeFaultTimeoutMs (which does not apply here: before, it named it).
      expect(stalled?.warning).toContain('free room where the store lives');
      expect(stalled?.warning).toContain('or cancel the job');
      expect(stalled?.warning).not.toMatch(/storeFaultTimeoutMs|--store-fault-timeout-ms|worker/);
      // Long enough for a retry storm; then the space comes back.
      await sleep(2_000);
      const postsWhileFull = receiver.attempts;
      small.release();

      let status: JobStatusResponse | undefined;
      const end = Date.now() + 60_000;
      while (Date.now() < end) {
        status = ok(await ck.getBatchScrapeStatus(id, { limit: 1 }));
        if (status.status !== 'scraping') break;
        await sleep(100);
      }
      expect(status?.status).toBe('completed');
      const final = ok(await ck.waitForJob(id));
      expect(final.completed).toBe(PAGES);
      expect(final.warning).toBeUndefined();
      expect(final.data).toHaveLength(PAGES);
      const errors = await ck.getBatchScrapeErrors(id);
      if (!('errors' in errors)) throw new Error(errors.error);
      expect(errors.errors).toEqual([]);

      // Every event delivered, each POSTed once: started, a page per URL, completed.
      const delivered = await (async () => {
        for (let i = 0; i < 200 && receiver.events.length < PAGES + 2; i++) await sleep(50);
        return receiver.events.map((e) => e.payload.type);
      })();
      expect(delivered.filter((t) => t === 'batch_scrape.page')).toHaveLength(PAGES);
      expect(delivered).toContain('batch_scrape.completed');
      const posts = new Map<string, number>();
      for (const delivery of receiver.deliveryIds) posts.set(delivery, (posts.get(delivery) ?? 0) + 1);
      expect(Math.max(...posts.values()), `${postsWhileFull} POSTs while the disk was full`).toBe(1);
    } finally {
      await ck.close();
    }
  });
});
