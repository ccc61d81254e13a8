/**
 * Server overhead benchmark: `pnpm bench:server` (builds first; `node bench/server.ts [--quick]` after a build).
 *
 * The same cached page scraped three ways, interleaved round by round so that machine noise hits every row alike:
 * - in-process: `ck.scrape()` (a cache hit, hot tier);
 * - over HTTP: `POST /v2/scrape` to `@crawlkit/server` on 127.0.0.1 over that engine, with undici on a keep-alive
 *   connection (the server's own cost: HTTP, JSON parse and serialise, auth, admission);
 * - the official SDK: `@mendable/firecrawl-js`'s `scrape()` against the same server (what a v2 client sees: axios
 *   on top).
 * Each round times a block of requests one after another (requests/s = block / time) and a block sent 16 at a time.
 * The table shows the median over rounds. No goal: the figure says what serving costs. Writes
 * bench/results/server.json.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Firecrawl from '@mendable/firecrawl-js';
import { startServer } from '@crawlkit/server';
import { Crawlkit } from 'crawlkit';
import { Pool } from 'undici';

import { generatedPage } from './lib/generated-site.ts';
import { startPageServer } from './lib/page-server.ts';
import { finish, isQuick, median, type Row } from './lib/report.ts';

const quick = isQuick();
const ROUNDS = quick ? 5 : 40;
const WARMUP = quick ? 1 : 3;
/** Requests per timed block. */
const BLOCK = quick ? 20 : 100;
/** Requests in flight at once in the concurrent blocks. */
const PARALLEL = 16;

const root = mkdtempSync(join(tmpdir(), 'ck-bench-server-'));
const html = generatedPage(7, { pages: 100 });
const pages = await startPageServer(new Map([['/page.html', html]]));
const request = { url: `${pages.url}/page.html`, formats: ['markdown' as const] };

const ck = new Crawlkit({ storeDir: join(root, 'store'), engine: 'http' });
const server = await startServer({ crawlkit: ck, port: 0 });
const pool = new Pool(server.url, { connections: PARALLEL });
const sdk = new Firecrawl({ apiUrl: server.url, apiKey: 'fc-bench' });
const body = JSON.stringify(request);

function expectHit(doc: { metadata?: { cacheState?: unknown } } | undefined, how: string): void {
  if (doc?.metadata?.cacheState !== 'hit') throw new Error(`${how}: expected a cache hit`);
}

const ways: Record<string, () => Promise<void>> = {
  'in-process ck.scrape()': async () => {
    const answer = await ck.scrape(request);
    expectHit(answer.success ? answer.data : undefined, 'in-process');
  },
  'HTTP POST /v2/scrape (undici, keep-alive)': async () => {
    const response = await pool.request({
      path: '/v2/scrape',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const answer = (await response.body.json()) as { data?: { metadata?: { cacheState?: unknown } } };
    expectHit(answer.data, 'HTTP');
  },
  'official SDK fc.scrape()': async () => {
    expectHit(await sdk.scrape(request.url, { formats: request.formats }), 'SDK');
  },
};

/** Mean requests/s of `BLOCK` requests, `parallel` in flight at a time. */
async function rate(fn: () => Promise<void>, parallel: number): Promise<number> {
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next++ < BLOCK) await fn();
    }),
  );
  return BLOCK / ((performance.now() - start) / 1000);
}

// The page in the cache, then every way once.
await ck.scrape(request);
for (const fn of Object.values(ways)) await fn();

const samples: Record<string, { sequential: number[]; parallel: number[] }> = Object.fromEntries(
  Object.keys(ways).map((name) => [name, { sequential: [], parallel: [] }]),
);
for (let round = 0; round < WARMUP + ROUNDS; round++) {
  for (const [name, fn] of Object.entries(ways)) {
    const sequential = await rate(fn, 1);
    const parallel = await rate(fn, PARALLEL);
    if (round < WARMUP) continue;
    samples[name]!.sequential.push(sequential);
    samples[name]!.parallel.push(parallel);
  }
}

await pool.close();
await server.close();
await ck.close();
await pages.close();
rmSync(root, { recursive: true, force: true });

const base = samples['in-process ck.scrape()']!;
const round1 = (n: number) => Math.round(n * 10) / 10;
const rows: Row[] = Object.entries(samples).map(([row, s]) => {
  const sequential = median(s.sequential);
  const parallel = median(s.parallel);
  return {
    row,
    'req/s, 1 at a time': round1(sequential),
    'ms per request': Math.round((1000 / sequential) * 1000) / 1000,
    [`req/s, ${PARALLEL} at a time`]: round1(parallel),
    'in-process / row (1 at a time)': round1(median(base.sequential) / sequential),
  };
});
const http = samples['HTTP POST /v2/scrape (undici, keep-alive)']!;
const overheadMs = 1000 / median(http.sequential) - 1000 / median(base.sequential);

finish({
  name: 'server',
  title: `A cached scrape in-process, over HTTP (crawlkit serve) and through the official SDK (${(html.length / 1024).toFixed(0)} KB page, ${ROUNDS} interleaved rounds of ${BLOCK} requests)`,
  quick,
  columns: [
    'row',
    'req/s, 1 at a time',
    'ms per request',
    `req/s, ${PARALLEL} at a time`,
    'in-process / row (1 at a time)',
  ],
  rows,
  notes: [`The server adds ${overheadMs.toFixed(3)} ms to a cached scrape (median, one request at a time).`],
  goals: [],
  data: { pageBytes: Buffer.byteLength(html), rounds: ROUNDS, block: BLOCK, parallel: PARALLEL, samples, overheadMs },
});
