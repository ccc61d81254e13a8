/**
 * Cache benchmark: `pnpm bench:cache` (builds first; `node bench/cache.ts [--quick]` after a build).
 *
 * The same page through `ck.scrape()`, interleaved round by round so that machine noise hits every row alike:
 * - miss: the cache is cleared (outside the timing), so the scrape looks up, fetches from a local server over
 *   HTTP, extracts and writes the page;
 * - hit, hot tier: the default on-disk store, the page in its in-memory LRU;
 * - hit, disk: an on-disk store without hot tier (what a new process sees first);
 * - hit, memory store (`store: 'memory'`);
 * - hit, other formats: a hit asking for formats not asked before (html + links + rawHtml), so the cached response is
 *   extracted again;
 * and, as the floor a hit competes with, `scrape()` of the same request with invalid input (validation and the
 * error answer only). Hits are timed as blocks of 10 in a row (mean per hit), the miss and the re-extracted hit one
 * by one; the table shows the median over rounds. Goals: a hit at least 50x faster than a miss (issue 11), and
 * at least 5x (what the interface promises, issue 5). Writes bench/results/cache.json.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createSqliteStore } from '@crawlkit/store';
import { Crawlkit } from 'crawlkit';

import { generatedPage } from './lib/generated-site.ts';
import { startPageServer } from './lib/page-server.ts';
import { finish, goal, isQuick, median, percentile, type Row } from './lib/report.ts';

const quick = isQuick();
const ROUNDS = quick ? 30 : 300;
const WARMUP = 20;

const root = mkdtempSync(join(tmpdir(), 'ck-bench-cache-'));
const html = generatedPage(7, { pages: 100 });
const server = await startPageServer(new Map([['/page.html', html]]));
const url = `${server.url}/page.html`;

const hot = new Crawlkit({ storeDir: join(root, 'hot'), engine: 'http' });
const disk = new Crawlkit({
  store: await createSqliteStore({ dir: join(root, 'disk'), hotTier: false }),
  engine: 'http',
});
const memory = new Crawlkit({ store: 'memory', engine: 'http' });

/** Hits are timed in blocks of this many in a row (per-hit time = block / HIT_BLOCK), so that the garbage of the
 * miss just before is not charged to one hit and each hit's own share of collection is. */
const HIT_BLOCK = 10;

async function timed(fn: () => Promise<unknown>, times = 1): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < times; i++) await fn();
  return (performance.now() - start) / times;
}

async function expectState(ck: Crawlkit, state: 'hit' | 'miss', body: Parameters<Crawlkit['scrape']>[0]) {
  const response = await ck.scrape(body);
  if (!response.success) throw new Error(`scrape failed: ${response.error}`);
  if (response.data.metadata.cacheState !== state) {
    throw new Error(`expected a ${state}, got ${String(response.data.metadata.cacheState)}`);
  }
}

const request = { url, formats: ['markdown' as const] };
/** An unknown format: `scrape()` answers BAD_REQUEST after validation, before any cache or network work. */
const invalidBody = { url, formats: ['nope'] } as unknown as Parameters<Crawlkit['scrape']>[0];
const other = { url, formats: ['html' as const, 'links' as const, 'rawHtml' as const] };
const samples: Record<string, number[]> = {
  miss: [],
  'hit, hot tier': [],
  'hit, hot tier, the one right after the miss': [],
  'hit, disk (no hot tier)': [],
  'hit, memory store': [],
  'hit, other formats (re-extracted)': [],
  'floor: invalid request (validation only)': [],
};

// Fill the three caches once.
await expectState(disk, 'miss', request);
await expectState(memory, 'miss', request);

for (let round = 0; round < WARMUP + ROUNDS; round++) {
  const keep = round >= WARMUP;
  await hot.cache.clear();
  const miss = await timed(() => expectState(hot, 'miss', request));
  const firstHit = await timed(() => expectState(hot, 'hit', request));
  // Right after: other formats of the same fresh entry, extracted again from the cached response.
  const otherHit = await timed(() =>
    expectState(hot, 'hit', round % 2 ? other : { url, formats: ['links', 'html'], onlyMainContent: false }),
  );
  const hit = await timed(() => expectState(hot, 'hit', request), HIT_BLOCK);
  const diskHit = await timed(() => expectState(disk, 'hit', request), HIT_BLOCK);
  const memoryHit = await timed(() => expectState(memory, 'hit', request), HIT_BLOCK);
  const floor = await timed(() => hot.scrape(invalidBody), HIT_BLOCK);
  if (!keep) continue;
  samples.miss!.push(miss);
  samples['hit, hot tier']!.push(hit);
  samples['hit, hot tier, the one right after the miss']!.push(firstHit);
  samples['hit, disk (no hot tier)']!.push(diskHit);
  samples['hit, memory store']!.push(memoryHit);
  samples['hit, other formats (re-extracted)']!.push(otherHit);
  samples['floor: invalid request (validation only)']!.push(floor);
}

await Promise.all([hot.close(), disk.close(), memory.close()]);
await server.close();
rmSync(root, { recursive: true, force: true });

const missMedian = median(samples.miss!);
const rows: Row[] = Object.entries(samples).map(([row, values]) => ({
  row,
  'median ms': Math.round(median(values) * 1000) / 1000,
  'p95 ms': Math.round(percentile(values, 0.95) * 1000) / 1000,
  'miss / row': Math.round((missMedian / median(values)) * 10) / 10,
}));
const hitMedian = median(samples['hit, hot tier']!);
const ratio = missMedian / hitMedian;
const diskRatio = missMedian / median(samples['hit, disk (no hot tier)']!);
const value = (r: number, hitMs: number) =>
  `${r.toFixed(1)}x (miss ${missMedian.toFixed(3)} ms, hit ${hitMs.toFixed(3)} ms)`;

finish({
  name: 'cache',
  title: `Cache hit vs miss through ck.scrape() (${(html.length / 1024).toFixed(0)} KB page, local HTTP server, ${ROUNDS} interleaved rounds)`,
  quick,
  columns: ['row', 'median ms', 'p95 ms', 'miss / row'],
  rows,
  goals: [
    goal('cache.hit-vs-miss', 'cache hit >= 50x faster than a miss', ratio, 50, value(ratio, hitMedian)),
    goal(
      'cache.hit-vs-miss-interface',
      'cache hit >= 5x faster than a miss (what the interface promises)',
      ratio,
      5,
      value(ratio, hitMedian),
    ),
    goal(
      'cache.disk-hit-vs-miss',
      'disk hit (no hot tier) >= 5x faster than a miss',
      diskRatio,
      5,
      value(diskRatio, median(samples['hit, disk (no hot tier)']!)),
    ),
  ],
  data: { pageBytes: Buffer.byteLength(html), rounds: ROUNDS, hitBlock: HIT_BLOCK, samplesMs: samples },
});
