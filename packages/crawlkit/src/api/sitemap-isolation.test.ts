/**
 * A site's sitemaps are read in the extraction pool's worker threads: a sitemap is up to 50 MiB of XML (often
 * gzipped), a second or more of decompressing, decoding and parsing, which on the main thread would stop every other
 * page, lease and webhook of the engine meanwhile. A small plain one (a sitemap index) is read in place.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { threadId } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../../../../fixtures/server.ts';
import { Crawlkit } from '../crawlkit.js';
import type { CallStart } from '../extraction/pool.js';

const PRODUCTS = 200_000;
/**
 * The longest the event loop may be held by this thread's work (CPU time) while a sitemap is read, past what taking
 * in the worker's answer costs (`takeInMs`). Read on this thread, the sitemap holds it 520–570 ms here.
 */
const STALL_BOUND_MS = 150;

/**
 * This thread's CPU time to take in 100,000 sitemap entries from a worker (a structured clone of them, measured in
 * this run): a stretch no slicing removes, 50–130 ms on this machine alone and several times that beside a CI pair,
 * where a fixed bound of 200 ms failed at 217. Measured beside the work, it grows with the load as the work does.
 */
function takeInMs(): number {
  const entries = Array.from({ length: 100_000 }, (_, i) => ({
    loc: `http://127.0.0.1:4000/products/category-${i % 97}/item-${i}-stainless-steel-kitchen-utensil-set`,
    lastmod: '2026-11-05',
  }));
  const before = process.threadCpuUsage();
  structuredClone(entries);
  const used = process.threadCpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** A shop's product sitemap as generators write it: one `<url>` per product with lastmod, changefreq, priority. */
function productSitemap(base: string): Buffer {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
  ];
  for (let i = 0; i < PRODUCTS; i++) {
    parts.push(
      `<url><loc>${base}/products/category-${i % 97}/item-${i}-stainless-steel-kitchen-utensil-set</loc><lastmod>2026-11-0${1 + (i % 9)}</lastmod><changefreq>weekly</changefreq><priority>0.5</priority></url>\n`,
    );
  }
  parts.push('</urlset>\n');
  return gzipSync(parts.join(''), { level: 1 });
}

let server: FixtureServer;
let ck: Crawlkit;
let gzipped: Buffer;

beforeAll(async () => {
  server = await startFixtureServer({
    routes: {
      '/robots.txt': (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'text/plain' })
          .end(`User-agent: *\nAllow: /\nSitemap: ${server.url}/sitemap_index.xml\n`),
      '/sitemap_index.xml': (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'application/xml' })
          .end(
            `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${server.url}/sitemap-products-1.xml.gz</loc><lastmod>2026-11-20</lastmod></sitemap></sitemapindex>`,
          ),
      '/sitemap-products-1.xml.gz': (_req, res) =>
        void res.writeHead(200, { 'content-type': 'application/x-gzip' }).end(gzipped),
      '/products/*': (req, res) =>
        void res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            `<!doctype html><html><head><title>Utensil set</title></head><body><header><nav><a href="/">Shop</a> <a href="/cart">Cart</a></nav></header><main><h1>Stainless steel kitchen utensil set</h1><p>Seven pieces with a stand, dishwasher safe. ${req.url}</p></main><footer>© Example Shop</footer></body></html>`,
          ),
    },
  });
  gzipped = productSitemap(server.url);
  ck = new Crawlkit({ store: 'memory', engine: 'http', workers: { size: 1, maxMemoryMb: 512 } });
  // What is measured is the sitemap's reading: one scrape loads the engine's modules and starts its worker thread
  // (a module graph evaluated on the main thread holds the loop for a while on a loaded machine).
  const warm = await ck.scrape({ url: `${server.url}/products/warm-up`, formats: ['markdown'] });
  if (!warm.success) throw new Error(JSON.stringify(warm));
}, 60_000);

afterAll(async () => {
  await ck?.close();
  await server?.close();
});

/**
 * The longest stretch of main-thread CPU time between two runs of a 10 ms interval timer while `work` ran: how long
 * the event loop was held by work of this thread. Wall-clock gaps would also count the time a loaded machine did not
 * schedule the thread at all (a 70 ms stretch became 511 ms in a CI run beside other CPU-bound processes).
 */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = process.threadCpuUsage();
  let stallMs = 0;
  const busySince = () => {
    const used = process.threadCpuUsage(last);
    last = process.threadCpuUsage();
    return (used.user + used.system) / 1000;
  };
  const ticker = setInterval(() => {
    stallMs = Math.max(stallMs, busySince());
  }, 10);
  try {
    const result = await work();
    // Work that ends in one stretch of promise callbacks leaves no turn for the timer: its last stretch counts too.
    stallMs = Math.max(stallMs, busySince());
    return { result, stallMs };
  } finally {
    clearInterval(ticker);
  }
}

describe('sitemaps in worker threads', () => {
  it('reads a gzipped sitemap of 200,000 products in a worker while the event loop keeps running', async () => {
    const starts: CallStart[] = [];
    const listener = (message: unknown) => void starts.push(message as CallStart);
    subscribe('crawlkit:extraction:call-start', listener);
    let outcome: Awaited<ReturnType<typeof longestStall<Awaited<ReturnType<Crawlkit['map']>>>>>;
    try {
      outcome = await longestStall(() => ck.map({ url: server.url, sitemap: 'only', limit: 5_000 }));
    } finally {
      unsubscribe('crawlkit:extraction:call-start', listener);
    }
    const response = outcome.result;
    if (!response.success) throw new Error(JSON.stringify(response));
    // Read on the main thread (workers.size 0), the sitemap holds the loop for 520–570 ms of CPU on this 2-core
    // machine; read in a worker and listed in slices, the longest stretch is 10–35 ms.
    expect(outcome.stallMs).toBeLessThan(STALL_BOUND_MS + takeInMs());
    // The index (plain, under INLINE_SITEMAP_BYTES) is read in place; the gzipped sitemap in a worker.
    const reads = starts.filter((s) => s.kind === 'sitemap');
    expect(reads.map((s) => s.url)).toEqual([`${server.url}/sitemap-products-1.xml.gz`]);
    expect(reads.every((s) => s.threadId !== threadId)).toBe(true);
    expect(response.links).toHaveLength(5_000);
    expect(response.links[0]!.url).toMatch(/\/products\/category-\d+\/item-\d+-stainless/);
  });

  it('admits the sitemap of a crawl in slices: the event loop keeps running while 100,000 URLs are checked', async () => {
    const outcome = await longestStall(async () => {
      const started = await ck.crawl({ url: server.url, sitemap: 'only', limit: 10 });
      if (!started.success) throw new Error(JSON.stringify(started));
      return ck.waitForJob(started.id);
    });
    const job = outcome.result;
    if (!job.success) throw new Error(JSON.stringify(job));
    expect(job.status).toBe('completed');
    expect(job.data).toHaveLength(10);
    expect(job.data[0]!.markdown).toContain('Stainless steel kitchen utensil set');
    // On the main thread: 520–570 ms of CPU in one stretch. In a worker: 20–60 ms (the URLs' copy, a collection).
    expect(outcome.stallMs).toBeLessThan(STALL_BOUND_MS + takeInMs());
    // 2 s alone, 5–17 s in CI pairs, past 30 s at load 20: what is asserted is the loop's longest stall, not the time.
  }, 90_000);
});
