/**
 * Several teams on one `crawlkit serve`: `pnpm bench:tenants` (builds first; `node bench/tenants.ts [--quick]` after a
 * build).
 *
 * Three API keys on one server (engine concurrency 16, HTTP engine), driven by the official SDK. Team B crawls a
 * 20-page generated site (a new one each time, so nothing comes from the cache) alone, then while team A's batches of
 * 5,000 pages of 200 ms each run: one batch, then four. Rounds interleave the three rows so that machine noise hits
 * them alike; the table shows the median. The engine's slots serve job pages by tenant, then by job (fewest running
 * first): before, B's every page waited behind a page of each of A's batches. Writes bench/results/tenants.json.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Firecrawl from '@mendable/firecrawl-js';
import { startServer } from '@crawlkit/server';
import { Crawlkit } from 'crawlkit';

import { serveGeneratedSite } from './lib/generated-site.ts';
import { finish, goal, isQuick, median, type Row } from './lib/report.ts';

/** Scrapes in the engine's slots (none once it is closed). */
const queued = (ck: Crawlkit): number => {
  const status = ck.getQueueStatus();
  return status.success ? status.jobsInQueue : 0;
};

const quick = isQuick();
const ROUNDS = quick ? 2 : 7;
const BATCH_URLS = 5_000;
const PAGE_MS = 200;
const CRAWL_PAGES = 20;

const root = mkdtempSync(join(tmpdir(), 'ck-bench-tenants-'));
// Team A's pages: each answers after PAGE_MS, as a slow site does.
const slow = createServer((_req, res) => {
  setTimeout(() => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<html><head><title>Slow</title></head><body><main><p>A page that took its time.</p></main></body></html>');
  }, PAGE_MS);
});
await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;

const ck = new Crawlkit({ storeDir: join(root, 'store'), engine: 'http', concurrency: 16 });
const keys = ['fc-team-a', 'fc-team-b', 'fc-team-c'];
const server = await startServer({ crawlkit: ck, port: 0, apiKeys: keys });
const [a, b] = keys.map((apiKey) => new Firecrawl({ apiKey, apiUrl: server.url }));
let seed = 1;

/** Milliseconds B's crawl of a new 20-page site takes, from its start to its last page stored. */
async function crawlB(): Promise<number> {
  const site = await serveGeneratedSite({ pages: CRAWL_PAGES, linksPerPage: 3, seed: seed++ });
  try {
    const start = performance.now();
    const { id } = await b!.startCrawl(`${site.url}/`, { limit: CRAWL_PAGES });
    // Polled every 20 ms (the SDK's `crawl()` waits a second or more between polls).
    for (;;) {
      const status = await b!.getCrawlStatus(id, { autoPaginate: false });
      if (status.status === 'completed' && status.completed === CRAWL_PAGES) return performance.now() - start;
      if (status.status !== 'scraping') throw new Error(`B's crawl ended ${status.status}, ${status.completed} pages`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await site.close();
  }
}

/** B's crawl while `batches` of A's run (started first, given a second to fill the slots). */
async function behind(batches: number): Promise<number> {
  const ids: string[] = [];
  for (let j = 0; j < batches; j++) {
    const urls = Array.from({ length: BATCH_URLS }, (_, i) => `${slowUrl}/${seed}/${j}/${i}`);
    ids.push((await a!.startBatchScrape(urls, { options: { formats: ['markdown'] } })).id);
  }
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  try {
    return await crawlB();
  } finally {
    for (const id of ids) await a!.cancelBatchScrape(id);
    while (queued(ck) > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const rows: Record<string, () => Promise<number>> = {
  'B alone': crawlB,
  "B behind A's 1 batch": () => behind(1),
  "B behind A's 4 batches": () => behind(4),
};
const samples: Record<string, number[]> = Object.fromEntries(Object.keys(rows).map((row) => [row, []]));
// A first crawl warms the engine (modules, the store, the pool).
await crawlB();
for (let round = 0; round < ROUNDS; round++) {
  for (const [row, run] of Object.entries(rows)) samples[row]!.push(await run());
}

await server.close();
await ck.close();
slow.close();
rmSync(root, { recursive: true, force: true });

const alone = median(samples['B alone']!);
const table: Row[] = Object.entries(samples).map(([row, ms]) => ({
  row,
  'median ms': Math.round(median(ms)),
  'vs alone': Math.round((median(ms) / alone) * 10) / 10,
}));
const four = median(samples["B behind A's 4 batches"]!) / alone;

finish({
  name: 'tenants',
  title: `Team B's ${CRAWL_PAGES}-page crawl alone and behind team A's batches of ${BATCH_URLS} ${PAGE_MS} ms pages (concurrency 16, ${ROUNDS} interleaved rounds)`,
  quick,
  columns: ['row', 'median ms', 'vs alone'],
  rows: table,
  goals: [
    goal(
      'tenants.turns',
      "B's crawl behind A's four batches within 3x its time alone (before the turns: ~10x)",
      four,
      3,
      `${four.toFixed(1)}x`,
      { atMost: true },
    ),
  ],
  data: { rounds: ROUNDS, batchUrls: BATCH_URLS, pageMs: PAGE_MS, crawlPages: CRAWL_PAGES, samples },
});
