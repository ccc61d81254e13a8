/**
 * Search benchmark (issue 39): `pnpm bench:search` (`--quick`: smaller samples).
 *
 * 1. Indexing cost on a crawl: the generated site (bench/lib/generated-site.ts) crawled with markdown into a SQLite
 *    store with its search index and into one without (`searchIndex: false`), alternately, in the same run; the
 *    goal is the index slowing the crawl by at most 10% (the median of each round's ratio of its two crawls' rates).
 *    The CPU time per page of the process, and that of the main thread alone (where the store writes, so where the
 *    index's writes run), are shown beside it: steadier than the rate on a shared machine.
 * 2. Search latency over 10,000 stored pages: pages of seeded Zipf prose (~300 words from a 5,000-word vocabulary)
 *    put into each driver's store with their text (SQLite FTS5, memory, Redis when a redis-server can be started),
 *    then `ck.search()` (the whole v2 path: parsing, the index, snippets, highlights) with a mix of queries: common
 *    and rare words, two and three words, a phrase, a prefix, an exclusion, a domain filter. The goal is a median
 *    under 100 ms on SQLite (the default store). The put rows time the same pages put without text, same run. The
 *    first search right after the puts is shown apart: SQLite writes texts to FTS5 once the store is idle, so that
 *    search indexes all 10,000 first.
 * 3. Phrase queries on the memory and Redis indexes (`BENCH_SEARCH_PARTS=phrase`, not run by default): the same corpus
 *    in a child process per build and driver, this build and `CK_BENCH_BASELINE=<checkout>` (built) alternating:
 *    time, main-thread CPU, bytes Redis sent, the index's size, and whether both builds answer the same.
 * Writes bench/results/search.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { createMemoryStore, createSqliteStore, type Store } from '@crawlkit/store';
import { Crawlkit } from 'crawlkit';

import { startRedisServer } from '../test/setup/redis.ts';
import { serveGeneratedSite } from './lib/generated-site.ts';
import { searchCorpus, VOCABULARY } from './lib/search-corpus.ts';
import { finish, goal, isQuick, median, percentile, type Row } from './lib/report.ts';

const quick = isQuick();
const CRAWL_PAGES = quick ? 150 : 1_000;
const CRAWL_ROUNDS = quick ? 1 : 5;
const CORPUS = quick ? 2_000 : 10_000;
const QUERY_ROUNDS = quick ? 2 : 5;
/** Processes per build and driver in the phrase part. */
const PHRASE_PROCESS_ROUNDS = quick ? 1 : 2;
const root = mkdtempSync(join(tmpdir(), 'ck-bench-search-'));
let dirs = 0;
const dir = () => join(root, `s${dirs++}`);

const rows: Row[] = [];
const goals = [];
const data: Record<string, unknown> = { crawlPages: CRAWL_PAGES, crawlRounds: CRAWL_ROUNDS, corpus: CORPUS };

// ---------------------------------------------------------------------------------------------- crawl with index --

/**
 * One crawl: its rate (pages per minute, wall clock), the CPU time of the process per page (every thread), and the
 * main thread's CPU time per page: the store's writes, and so the index's, run there.
 */
async function crawl(siteUrl: string, searchIndex: boolean): Promise<{ rate: number; cpuMs: number; mainMs: number }> {
  const store = await createSqliteStore({ dir: dir(), searchIndex });
  const ck = new Crawlkit({ store, engine: 'http', concurrency: 16 });
  const started = performance.now();
  const cpu = process.cpuUsage();
  const thread = process.threadCpuUsage();
  const job = await ck.crawl({ url: `${siteUrl}/`, limit: CRAWL_PAGES, sitemap: 'skip' });
  if (!job.success) throw new Error(job.error);
  const done = await ck.waitForJob(job.id);
  const seconds = (performance.now() - started) / 1_000;
  const used = process.cpuUsage(cpu);
  const mainUsed = process.threadCpuUsage(thread);
  if (!done.success || done.completed !== CRAWL_PAGES)
    throw new Error(`crawl stored ${JSON.stringify(done).slice(0, 200)}`);
  if (searchIndex && (await store.search!.count()) !== 2 * CRAWL_PAGES) throw new Error('index incomplete');
  await ck.close();
  return {
    rate: (CRAWL_PAGES / seconds) * 60,
    cpuMs: (used.user + used.system) / 1_000 / CRAWL_PAGES,
    mainMs: (mainUsed.user + mainUsed.system) / 1_000 / CRAWL_PAGES,
  };
}

/** `BENCH_SEARCH_PARTS=crawl` or `latency` runs one part. */
const PARTS = (process.env.BENCH_SEARCH_PARTS ?? 'crawl,latency').split(',');

if (PARTS.includes('crawl')) {
  const site = await serveGeneratedSite({ pages: CRAWL_PAGES, linksPerPage: 10 });
  const rates: Record<'on' | 'off', number[]> = { on: [], off: [] };
  const cpu: Record<'on' | 'off', number[]> = { on: [], off: [] };
  const main: Record<'on' | 'off', number[]> = { on: [], off: [] };
  /** Each round's slowdown: its crawl with the index against its crawl without, run one after the other. */
  const slowdowns: number[] = [];
  await crawl(site.url, true); // warm-up: worker threads, JIT
  for (let round = 0; round < CRAWL_ROUNDS; round++) {
    // Alternate which goes first: load drifts along the run.
    const order: ('on' | 'off')[] = round % 2 ? ['on', 'off'] : ['off', 'on'];
    for (const mode of order) {
      const run = await crawl(site.url, mode === 'on');
      rates[mode].push(run.rate);
      cpu[mode].push(run.cpuMs);
      main[mode].push(run.mainMs);
    }
    slowdowns.push(rates.off[round]! / rates.on[round]! - 1);
  }
  await site.close();
  const on = median(rates.on);
  const off = median(rates.off);
  const slowdown = median(slowdowns);
  const more = (values: Record<'on' | 'off', number[]>) =>
    `${((median(values.on) / median(values.off) - 1) * 100).toFixed(1)}%`;
  rows.push(
    {
      measure: 'crawl, SQLite store without index (baseline)',
      median: `${off.toFixed(0)} pages/min`,
      p95: '-',
      note: `${CRAWL_PAGES} pages, ${CRAWL_ROUNDS} rounds`,
    },
    {
      measure: 'crawl, SQLite store with search index',
      median: `${on.toFixed(0)} pages/min`,
      p95: '-',
      note: `${(slowdown * 100).toFixed(1)}% slower than the baseline (median of the rounds' own ratios)`,
    },
    {
      measure: 'crawl CPU per page (process, every thread): without / with index',
      median: `${median(cpu.off).toFixed(2)} / ${median(cpu.on).toFixed(2)} ms`,
      p95: '-',
      note: `${more(cpu)} more CPU (includes the site server)`,
    },
    {
      measure: 'crawl main-thread CPU per page: without / with index',
      median: `${median(main.off).toFixed(2)} / ${median(main.on).toFixed(2)} ms`,
      p95: '-',
      note: `${more(main)} more (the store writes there; includes the site server)`,
    },
  );
  data.crawl = { pagesPerMinute: rates, slowdowns, cpuMsPerPage: cpu, mainThreadMsPerPage: main };
  goals.push(
    goal(
      'search.index-cost',
      'the search index slows a crawl by <= 10%',
      slowdown,
      0.1,
      `${(slowdown * 100).toFixed(1)}% (median of ${CRAWL_ROUNDS} rounds; ${on.toFixed(0)} vs ${off.toFixed(0)} pages/min)`,
      { atMost: true },
    ),
  );
}

// ------------------------------------------------------------------------------------------ corpus and queries --

const corpus = searchCorpus(CORPUS);
const value = 'x'.repeat(2_000);

const [w1, w2, w3, w10, w100, w1000, w4000] = [0, 1, 2, 9, 99, 999, 3_999].map((i) => VOCABULARY[i]!);
const QUERIES = [
  w1!, // in nearly every page
  w100!,
  w4000!, // rare
  `${w10} ${w1000}`,
  `${w2} ${w100} ${w4000}`,
  `"${w1} ${w2}"`,
  `${w1000!.slice(0, 3)}*`,
  `${w100} -${w3}`,
  `how to ${w10} the ${w1000}`, // stop words dropped
];
data.queries = QUERIES;

async function fill(store: Store, withText: boolean): Promise<number> {
  const started = performance.now();
  for (const page of corpus) {
    const search = withText
      ? { url: page.url, title: page.title, description: page.description, text: page.text }
      : undefined;
    await store.pages.put({ key: page.key, url: page.url, cachedAt: Date.now(), value, ...(search ? { search } : {}) });
  }
  return (performance.now() - started) / 1_000;
}

async function latency(name: string, open: () => Promise<Store>): Promise<number[]> {
  const plain = await open();
  const putPlain = await fill(plain, false);
  await plain.close();
  const store = await open();
  const putIndexed = await fill(store, true);
  const ck = new Crawlkit({ store, engine: 'http' });
  const times: number[] = [];
  const perQuery: Record<string, number[]> = {};
  // The first search right after the puts: SQLite indexes the texts that still wait for FTS5 first.
  const firstStarted = performance.now();
  const first = await ck.search({ query: QUERIES[1]!, limit: 10 });
  const firstMs = performance.now() - firstStarted;
  if (!first.success) throw new Error(`${name} first search: ${first.error}`);
  for (let round = 0; round < QUERY_ROUNDS; round++) {
    for (const query of QUERIES) {
      for (const extra of [{}, { includeDomains: ['site7.example'] }]) {
        const started = performance.now();
        const answer = await ck.search({ query, limit: 10, ...extra });
        const ms = performance.now() - started;
        if (!answer.success) throw new Error(`${name} ${query}: ${answer.error}`);
        if (round > 0) {
          times.push(ms);
          (perQuery[query] ??= []).push(ms);
        }
      }
    }
  }
  await ck.close();
  rows.push(
    {
      measure: `put ${CORPUS} pages without text, ${name}`,
      median: `${putPlain.toFixed(2)} s`,
      p95: '-',
      note: 'baseline',
    },
    {
      measure: `put ${CORPUS} pages with text (indexed), ${name}`,
      median: `${putIndexed.toFixed(2)} s`,
      p95: '-',
      note: `${(putIndexed / putPlain).toFixed(1)}x the baseline`,
    },
    {
      measure: `first ck.search() right after the puts, ${name}`,
      median: `${firstMs.toFixed(0)} ms`,
      p95: '-',
      note: name === 'SQLite' ? `indexes the ${CORPUS} texts waiting for FTS5 first` : 'indexed at the put',
    },
    {
      measure: `ck.search() over ${CORPUS} pages, ${name}`,
      median: `${median(times).toFixed(1)} ms`,
      p95: `${percentile(times, 0.95).toFixed(1)} ms`,
      note: `${times.length} searches, limit 10, highlights on`,
    },
  );
  data[name] = {
    putPlainSeconds: putPlain,
    putIndexedSeconds: putIndexed,
    firstSearchMs: firstMs,
    perQueryMedianMs: Object.fromEntries(Object.entries(perQuery).map(([q, t]) => [q, median(t)])),
  };
  return times;
}

if (PARTS.includes('latency')) {
  const sqliteTimes = await latency('SQLite', () => createSqliteStore({ dir: dir() }));
  goals.push(
    goal(
      'search.latency',
      `search over ${CORPUS.toLocaleString('en')} stored pages: median < 100 ms (SQLite)`,
      median(sqliteTimes),
      100,
      `${median(sqliteTimes).toFixed(1)} ms median, p95 ${percentile(sqliteTimes, 0.95).toFixed(1)} ms`,
      { atMost: true },
    ),
  );
  await latency('memory', () => Promise.resolve(createMemoryStore({ maxPageBytes: Infinity })));
  const redisServer = process.env.CRAWLKIT_BENCH_REDIS_URL ? undefined : await startRedisServer();
  const redisUrl = process.env.CRAWLKIT_BENCH_REDIS_URL ?? redisServer?.url;
  if (redisUrl) {
    const { createRedisStore } = await import('@crawlkit/redis');
    let n = 0;
    await latency('Redis', () =>
      createRedisStore({ url: redisUrl, prefix: `ck-bench-search-${process.pid}-${n++}`, maxPageBytes: Infinity }),
    );
    await redisServer?.stop();
  } else rows.push({ measure: 'Redis', median: '-', p95: '-', note: 'no redis-server' });
}

// ------------------------------------------------------------------------------- phrase queries, two builds --

/**
 * `BENCH_SEARCH_PARTS=phrase`: phrase queries on the memory and Redis indexes over the corpus, in a child process
 * per build and driver (`bench/lib/search-phrase.ts`), this build and `CK_BENCH_BASELINE` (another checkout, built)
 * alternating: time, main-thread CPU, bytes Redis sent, the index's size, and whether both builds answer the same.
 */
if (PARTS.includes('phrase')) {
  const baseline = process.env.CK_BENCH_BASELINE;
  const builds = baseline ? ['this', baseline] : ['this'];
  const redisServer = await startRedisServer();
  if (!redisServer) throw new Error('the phrase part needs a redis-server');
  const child = fileURLToPath(new URL('./lib/search-phrase.ts', import.meta.url));
  type Run = {
    driver: string;
    build: string;
    putSeconds: number;
    indexBytes: number;
    perQuery: Record<string, { wallMs: number[]; cpuMs: number[]; bytes: number[]; hits: unknown }>;
  };
  const runs: Run[] = [];
  for (let round = 0; round < PHRASE_PROCESS_ROUNDS; round++) {
    for (const build of round % 2 ? [...builds].reverse() : builds) {
      for (const driver of ['memory', 'redis']) {
        const env: NodeJS.ProcessEnv = { ...process.env };
        if (build === 'this') delete env.CK_BENCH_BUILD;
        else env.CK_BENCH_BUILD = build;
        const args = ['--expose-gc', child, driver, String(CORPUS), String(QUERY_ROUNDS), redisServer.url];
        const out = execFileSync(process.execPath, args, {
          env,
          maxBuffer: 64 * 2 ** 20,
          stdio: ['ignore', 'pipe', 'inherit'],
        }).toString();
        runs.push(JSON.parse(out.trim().split('\n').at(-1)!) as Run);
      }
    }
  }
  await redisServer.stop();
  const label = (build: string) => (build === 'this' ? 'this build' : 'baseline');
  const differ: string[] = [];
  for (const driver of ['memory', 'redis']) {
    const mine = runs.filter((r) => r.driver === driver);
    const reference = mine[0]!;
    for (const run of mine) {
      for (const [q, row] of Object.entries(run.perQuery)) {
        if (JSON.stringify(row.hits) !== JSON.stringify(reference.perQuery[q]!.hits)) differ.push(`${driver} ${q}`);
      }
    }
    for (const build of builds) {
      const of = mine.filter((r) => r.build === build);
      rows.push({
        measure: `phrase part, ${driver}, ${label(build)}: index size after ${CORPUS} puts`,
        median: `${(median(of.map((r) => r.indexBytes)) / 2 ** 20).toFixed(1)} MiB`,
        p95: '-',
        note: `${driver === 'redis' ? 'used_memory' : 'heap after GC'} less before; puts ${median(of.map((r) => r.putSeconds)).toFixed(1)} s`,
      });
      for (const q of Object.keys(reference.perQuery)) {
        // The first round of each process warms it up.
        const pick = (key: 'wallMs' | 'cpuMs' | 'bytes') => of.flatMap((r) => r.perQuery[q]![key].slice(1));
        const bytes = pick('bytes');
        rows.push({
          measure: `phrase part, ${driver}, ${label(build)}: ${q}`,
          median: `${median(pick('wallMs')).toFixed(1)} ms`,
          p95: `${percentile(pick('wallMs'), 0.95).toFixed(1)} ms`,
          note: `main-thread CPU ${median(pick('cpuMs')).toFixed(1)} ms${bytes.length ? `, Redis sent ${(median(bytes) / 1024).toFixed(0)} KiB` : ''}`,
        });
      }
    }
  }
  rows.push({
    measure: 'phrase part: answers (URL, score, snippet) identical across builds and processes',
    median: differ.length ? 'NO' : 'yes',
    p95: '-',
    note: differ.length ? differ.join('; ') : `${runs.length} processes`,
  });
  data.phrase = {
    builds,
    runs: runs.map(({ perQuery, ...run }) => ({
      ...run,
      perQuery: Object.fromEntries(Object.entries(perQuery).map(([q, { hits: _, ...row }]) => [q, row])),
    })),
  };
}

rmSync(root, { recursive: true, force: true });
finish({
  name: 'search',
  title: `search: indexing cost on a ${CRAWL_PAGES}-page crawl and ck.search() latency over ${CORPUS.toLocaleString('en')} stored pages`,
  quick,
  rows,
  goals,
  data,
});
