// Scrape throughput over HTTP: pages per second and peak RSS of crawlkit's `scrape()` (markdown, links, metadata,
// main content) over the WCXB dev pages served by a local HTTP server, beside the naive pipeline (fetch + jsdom +
// Readability.js + turndown) and the parse-only floor (undici + htmlparser2, no output), in the same run.
//
// Data: WCXB v1.0 by Murrough Foley, CC-BY-4.0 (read from ../shared/datasets/wcxb-dev, never copied here).
//
//   pnpm bench:scrape                every 4th page (375), ~5 minutes on 2 quiet cores (the naive row is most of it)
//   pnpm bench:scrape --quick        every 100th page (15) in batches of 8, 3 warm-up pages: a smoke check, ~25 s
//   options: --every N (every Nth page; 1 = all 1,497, ~17 minutes), --no-naive (skip the naive row),
//            --profile (CPU profile of crawlkit's row also in --quick), --dataset DIR (the folder holding wcxb-dev),
//            --workers 1,3 (a row per other pool size: crawlkit's default concurrency with workers.size N)
//
// Method: every row is a long-lived child process (so its peak RSS is its own, and it loads only its own row's
// libraries) that first processes other dev pages untimed (JIT warm-up: the pages between the measured ones, `{ every,
// offset: every / 2 }`, as many), once for each thread that extracts in it (a pool of two: twice), as each thread of
// the ceiling does, so that the rows and the ceiling are timed equally warm; the naive row (replaced every 150 pages)
// and the cold row warm up on 10 pages (3 in --quick), which is what a short job meets. The pages are cut into
// batches of 50; each batch
// goes to every row in turn, in an order rotating by batch, so that all rows meet the same background load on a
// shared machine. A row's pages/s is the median over batches; its peak RSS the high-water mark of its processes
// (the naive row's child is replaced every 150 pages: jsdom leaks across thousands of windows). The server runs in
// this process and serves every row alike. Then (issue 37) the whole list as one `batchScrape()` job at the default
// configuration (on-disk store, page cache, worker pool) beside the floor over the same pages at once, alternating,
// 3 rounds (each round asks for every page under a new URL, so the cache misses). Then a CPU profile of crawlkit's
// one-thread row (workers.size 0: the extraction on the profiled thread) over the first 125 pages (timed region
// only) shows where its time goes.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { summarizeProfile, type HotSpot, type ProfileSummary } from './lib/cpu-profile.ts';
import { startPageServer } from './lib/page-server.ts';
import { finish, goal, isQuick, median, withRatios, type Row } from './lib/report.ts';
import type { RunnerName } from './lib/scrape-runners.ts';
import type { BatchResult, WorkerMessage } from './lib/scrape-worker.ts';
import type { ThreadCeiling } from './lib/thread-ceiling.ts';
import type { ThreadCpu } from './lib/thread-cpu.ts';
import { loadWcxbPages } from './lib/wcxb.ts';

/** crawlkit's default `concurrency` (CrawlkitOptions); the reference rows use the same. */
const DEFAULT_CONCURRENCY = 16;
/** Untimed pages first in the naive row and the cold row (a short JIT warm-up); the others warm on a whole pass. */
const COLD_WARM_UP = isQuick() ? 3 : 10;
const PROFILE_PAGES = 125;
const GOAL_VS_NAIVE = 5;
const GOAL_VS_FLOOR = 3;
/** Issue 21's tighter goal, with the worker pool on (the default row). */
const GOAL_VS_FLOOR_POOL = 2;
/** Issue 22: the worker pool against extraction on the main thread, at the default concurrency, on 2 cores. */
const GOAL_VS_ONE_THREAD = 1.7;
/** Issue 37: the pool's gain over one thread, as a share of the gain of two bare threads (the machine's ceiling). */
const GOAL_OF_CEILING = 0.85;
const WORKER = join(import.meta.dirname, 'lib', 'scrape-worker.ts');
const CEILING = join(import.meta.dirname, 'lib', 'thread-ceiling.ts');

const args = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = isQuick(args);
const every = Number(arg('--every') ?? (quick ? 100 : 4));
const BATCH = quick ? 8 : 50;
const datasetRoot =
  arg('--dataset') ?? process.env['CK_DATASETS'] ?? join(import.meta.dirname, '../../shared/datasets');

interface RowSpec {
  label: string;
  runner: RunnerName;
  /** `default` = crawlkit's default concurrency (the reference rows use the same number). */
  concurrency: number | 'default';
  /** Replace the child after this many pages. */
  recycleAfter?: number;
  /** crawlkit's `workers.size` (its extraction threads); unset = the default, the cores. */
  workers?: number;
  /** Warm up on `COLD_WARM_UP` pages instead of a whole pass of other pages. */
  cold?: boolean;
}

const CRAWLKIT = `crawlkit scrape() c=${DEFAULT_CONCURRENCY} (default)`;
const NAIVE = `naive: fetch+jsdom+Readability+turndown c=${DEFAULT_CONCURRENCY}`;
const FLOOR = `floor: undici+htmlparser2 parse c=${DEFAULT_CONCURRENCY}`;
const ONE_THREAD = `crawlkit scrape() c=${DEFAULT_CONCURRENCY}, workers.size 0 (one thread)`;
const COLD = `crawlkit scrape() c=${DEFAULT_CONCURRENCY} (default), cold: ${COLD_WARM_UP} pages of warm-up`;
const specs: RowSpec[] = [
  { label: CRAWLKIT, runner: 'crawlkit', concurrency: 'default' },
  // What a short job meets: the JIT still compiling, in each thread of the pool (a whole pass of warm-up in the others).
  { label: COLD, runner: 'crawlkit', concurrency: 'default', cold: true },
  // The same engine extracting on its main thread: what the worker pool (issue 22) adds, side by side.
  {
    label: ONE_THREAD,
    runner: 'crawlkit',
    concurrency: 'default',
    workers: 0,
  },
  // Other pool sizes than the default (the cores), when asked: which size a machine like this one should default to.
  ...(arg('--workers') ?? '')
    .split(',')
    .filter(Boolean)
    .map((size) => ({
      label: `crawlkit scrape() c=${DEFAULT_CONCURRENCY}, workers.size ${Number(size)}`,
      runner: 'crawlkit' as const,
      concurrency: 'default' as const,
      workers: Number(size),
    })),
  { label: 'crawlkit scrape() c=1', runner: 'crawlkit', concurrency: 1 },
  ...(args.includes('--no-naive')
    ? []
    : [{ label: NAIVE, runner: 'naive' as const, concurrency: 'default' as const, recycleAfter: 150, cold: true }]),
  { label: FLOOR, runner: 'floor', concurrency: 'default' },
  { label: 'floor: undici+htmlparser2 parse c=1', runner: 'floor', concurrency: 1 },
];

/** A row's child process, one request at a time. */
class Worker {
  readonly #child: ChildProcess;
  #pending: { resolve: (m: unknown) => void; reject: (e: Error) => void } | undefined;
  pages = 0;

  constructor(spec: RowSpec, env: NodeJS.ProcessEnv = process.env) {
    this.#child = fork(WORKER, [spec.runner, String(spec.concurrency), String(DEFAULT_CONCURRENCY)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: spec.workers === undefined ? env : { ...env, CK_BENCH_WORKERS: String(spec.workers) },
    });
    const ready = new Promise((resolve, reject) => (this.#pending = { resolve, reject }));
    this.ready = ready.then(() => undefined);
    this.#child.on('message', (m) => {
      const p = this.#pending;
      this.#pending = undefined;
      p?.resolve(m);
    });
    this.#child.on('exit', (code) => this.#pending?.reject(new Error(`${spec.label}: worker exited (${code})`)));
  }

  readonly ready: Promise<void>;

  request<T>(message: WorkerMessage): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending = { resolve: resolve as (m: unknown) => void, reject };
      this.#child.send(message);
    });
  }

  /** Ends the child; resolves its peak RSS in MB. */
  async exit(): Promise<number> {
    const { peakRssMB } = await this.request<{ peakRssMB: number }>({ exit: true });
    return peakRssMB;
  }
}

const pages = loadWcxbPages(join(datasetRoot, 'wcxb-dev'), { every });
/** The warm-up's pages: as many, between the measured ones (the measured ones themselves when every page is). */
const WARM_OFFSET = Math.floor(every / 2);
const warmPages = every > 1 ? loadWcxbPages(join(datasetRoot, 'wcxb-dev'), { every, offset: WARM_OFFSET }) : pages;
const server = await startPageServer(new Map([...pages, ...warmPages].map((p) => [`/${p.id}.html`, p.html])));
const urls = pages.map((p) => `${server.url}/${p.id}.html`);
const warmUrls = warmPages.map((p) => `${server.url}/${p.id}.html`);
const batches: string[][] = [];
for (let i = 0; i < urls.length; i += BATCH) batches.push(urls.slice(i, i + BATCH));
const totalMB = pages.reduce((s, p) => s + Buffer.byteLength(p.html), 0) / 1e6;
console.log(
  `scrape-http: ${pages.length} WCXB dev pages (${totalMB.toFixed(1)} MB), ${batches.length} batches of up to ${BATCH}, ${specs.length} rows interleaved`,
);

/**
 * The threads that extract in a row: its pool's (crawlkit's default, the cores), else the row's main thread. Each warms
 * up on as many pages as a thread of the ceiling does, so a pool of two takes two passes of the warm-up's pages.
 */
const extractingThreads = (spec: RowSpec): number =>
  spec.runner.startsWith('crawlkit') && spec.workers !== 0 ? (spec.workers ?? availableParallelism()) : 1;

async function startWorker(spec: RowSpec, env?: NodeJS.ProcessEnv): Promise<Worker> {
  const worker = new Worker(spec, env);
  await worker.ready;
  if (spec.cold) await worker.request({ warm: urls.slice(0, COLD_WARM_UP) });
  else for (let pass = 0; pass < extractingThreads(spec); pass++) await worker.request({ warm: warmUrls });
  return worker;
}

interface RowState {
  worker: Worker;
  batches: BatchResult[];
  peakRssMB: number;
}
const states: RowState[] = [];
for (const spec of specs) states.push({ worker: await startWorker(spec), batches: [], peakRssMB: 0 });

const started = performance.now();
for (const [b, batch] of batches.entries()) {
  for (let k = 0; k < specs.length; k++) {
    const r = (k + b) % specs.length;
    const spec = specs[r]!;
    const state = states[r]!;
    if (spec.recycleAfter !== undefined && state.worker.pages + batch.length > spec.recycleAfter) {
      state.peakRssMB = Math.max(state.peakRssMB, await state.worker.exit());
      state.worker = await startWorker(spec);
    }
    state.batches.push(await state.worker.request<BatchResult>({ run: batch }));
    state.worker.pages += batch.length;
  }
  const elapsed = (performance.now() - started) / 1000;
  console.log(`  batch ${b + 1}/${batches.length} done (${elapsed.toFixed(0)} s)`);
}
for (const state of states) state.peakRssMB = Math.max(state.peakRssMB, await state.worker.exit());

// Issue 37: the whole list as one batchScrape() job at the default configuration, beside the floor over the same
// pages at once, alternating (floor first in odd rounds), each in its own child process as above.
const WHOLE_ROUNDS = quick ? 1 : 3;
const wholeBatch = await startWorker({ label: 'batch', runner: 'crawlkit-batch', concurrency: 'default' });
const wholeFloor = await startWorker({ label: 'floor', runner: 'floor', concurrency: 'default' });
const whole: { batch: BatchResult[]; floor: BatchResult[] } = { batch: [], floor: [] };
for (let round = 0; round < WHOLE_ROUNDS; round++) {
  const order = round % 2 ? (['batch', 'floor'] as const) : (['floor', 'batch'] as const);
  for (const side of order) {
    const worker = side === 'batch' ? wholeBatch : wholeFloor;
    // A new URL for each page each round, the same for both sides: the batch's page cache (on by default) misses.
    whole[side].push(await worker.request<BatchResult>({ run: urls.map((url) => `${url}?round=${round}`) }));
  }
  console.log(`  whole list, round ${round + 1}/${WHOLE_ROUNDS} done`);
}
const wholePeak = { batch: await wholeBatch.exit(), floor: await wholeFloor.exit() };

// Where crawlkit's time goes: a CPU profile of its one-thread row (timed region only). The profiler sees one
// thread: in the default row that thread hands the parse and extraction to the worker pool and sits idle most of the
// time, so the row profiled is the one whose extraction runs on the profiled thread.
let profile: ProfileSummary | undefined;
if (!quick || args.includes('--profile')) {
  const dir = mkdtempSync(join(tmpdir(), 'ck-bench-scrape-prof-'));
  const file = join(dir, 'crawlkit.cpuprofile');
  const worker = await startWorker(specs[1]!, { ...process.env, BENCH_CPU_PROFILE: file });
  await worker.request({ run: urls.slice(0, PROFILE_PAGES) });
  await worker.exit();
  profile = summarizeProfile(file, resolve(import.meta.dirname, '..'), 15);
  rmSync(dir, { recursive: true, force: true });
}
await server.close();

// What two threads give this machine for the same extraction with nothing around it: the pool's ratio's ceiling.
const ceiling = await new Promise<ThreadCeiling>((resolve, reject) => {
  const child = fork(CEILING, [join(datasetRoot, 'wcxb-dev'), String(every), quick ? '1' : '3', String(WARM_OFFSET)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.once('message', (m) => resolve(m as ThreadCeiling));
  child.once('exit', (code) => reject(new Error(`thread ceiling: child exited (${code})`)));
});

const rate = (w: BatchResult): number => w.pages / (w.ms / 1000);
const sig3 = (x: number): number => Number(x.toPrecision(3));
const rows: Row[] = specs.map((spec, r) => {
  const { batches: bs, peakRssMB } = states[r]!;
  const pagesDone = bs.reduce((a, w) => a + w.pages, 0);
  const ms = bs.reduce((a, w) => a + w.ms, 0);
  return {
    row: spec.label,
    'pages/s': sig3(median(bs.map(rate))),
    'pages/s overall': sig3(pagesDone / (ms / 1000)),
    'ms/page': Math.round((ms / pagesDone) * 100) / 100,
    'peak RSS MB': peakRssMB,
    failed: bs.reduce((a, w) => a + w.failed, 0),
  };
});
const errorsOf = (r: number): Record<string, number> => {
  const all: Record<string, number> = {};
  for (const b of states[r]!.batches) for (const [k, n] of Object.entries(b.errors)) all[k] = (all[k] ?? 0) + n;
  return all;
};
const failureNotes = specs.flatMap((spec, r) => {
  const e = Object.entries(errorsOf(r));
  return e.length ? [`  ${spec.label}: ${e.map(([k, n]) => `${k} x${n}`).join(', ')}`] : [];
});
/** CPU milliseconds a page by kind of thread of the row's process, over all its batches (Linux only). */
const cpuPerPage = (bs: readonly BatchResult[]): ThreadCpu | undefined => {
  const measured = bs.filter((b) => b.threadCpu);
  const n = measured.reduce((a, b) => a + b.pages, 0);
  if (!n) return undefined;
  const sum = (k: keyof ThreadCpu) => Math.round((measured.reduce((a, b) => a + b.threadCpu![k], 0) / n) * 100) / 100;
  return { main: sum('main'), workers: sum('workers'), v8: sum('v8'), other: sum('other') };
};
const cpuNotes = specs.flatMap((spec, r) => {
  const c = cpuPerPage(states[r]!.batches);
  if (!c || spec.runner === 'naive') return [];
  const all = c.main + c.workers + c.v8 + c.other;
  return [
    `  ${spec.label}: ${all.toFixed(1)} ms (main ${c.main.toFixed(1)}, workers ${c.workers.toFixed(1)}, ` +
      `V8 helpers ${c.v8.toFixed(1)}, other ${c.other.toFixed(1)})`,
  ];
});
const pps = (label: string): number => {
  const v = rows.find((r) => r.row === label)?.['pages/s'];
  return typeof v === 'number' ? v : Number.NaN;
};
const ck = pps(CRAWLKIT);
const vsNaive = ck / pps(NAIVE);
const floorOverCk = pps(FLOOR) / ck;
const vsOneThread = ck / pps(ONE_THREAD);
const wholeRate = (side: 'batch' | 'floor') => sig3(median(whole[side].map(rate)));
const floorOverBatch = wholeRate('floor') / wholeRate('batch');
const BATCH_ROW = `crawlkit batchScrape(): the ${urls.length} pages as one job (default configuration)`;
const WHOLE_FLOOR_ROW = `floor: the same ${urls.length} pages at once, c=${DEFAULT_CONCURRENCY}`;
rows.push(
  ...(['batch', 'floor'] as const).map((side) => {
    const bs = whole[side];
    const pagesDone = bs.reduce((a, w) => a + w.pages, 0);
    const ms = bs.reduce((a, w) => a + w.ms, 0);
    return {
      row: side === 'batch' ? BATCH_ROW : WHOLE_FLOOR_ROW,
      'pages/s': wholeRate(side),
      'pages/s overall': sig3(pagesDone / (ms / 1000)),
      'ms/page': Math.round((ms / pagesDone) * 100) / 100,
      'peak RSS MB': wholePeak[side],
      failed: bs.reduce((a, w) => a + w.failed, 0),
    };
  }),
);
/** The pool's speed-up over one thread as a share of two bare threads' speed-up, the machine's ceiling (issue 37). */
const ofCeiling = vsOneThread / ceiling.ratio;
/** The same as a share of the gains (what the pool adds over one thread, against what two bare threads add). */
const gainOfCeiling = (vsOneThread - 1) / (ceiling.ratio - 1);

finish({
  name: 'scrape-http',
  title: `scrape-http: ${pages.length} WCXB dev pages over local HTTP, pages/s = median over ${batches.length} interleaved batches`,
  quick,
  columns: ['row', 'pages/s', 'vs crawlkit', 'pages/s overall', 'ms/page', 'peak RSS MB', 'failed'],
  rows: withRatios(rows, 'pages/s', CRAWLKIT),
  notes: [
    `'vs crawlkit' = the row's pages/s over crawlkit's at the default concurrency; 'failed' = pages with no output.`,
    ...(failureNotes.length ? ['failures by cause:', ...failureNotes] : []),
    ...(cpuNotes.length
      ? [
          "\nCPU a page by thread of the row's process (/proc; V8 helpers: garbage collection and compilation):",
          ...cpuNotes,
        ]
      : []),
    ...(profile ? profileNotes(profile) : []),
    `\nthe machine's ceiling for the pool: extractPage over ${ceiling.pages} pages in memory, two bare worker threads ` +
      `against the main thread (no fetch, no messages), ${ceiling.rounds} rounds: ` +
      `${ceiling.ratio.toFixed(2)}x (${ceiling.twoThreads.map((x) => x.toFixed(0)).join('/')} vs ` +
      `${ceiling.oneThread.map((x) => x.toFixed(0)).join('/')} pages/s)`,
  ],
  goals: [
    goal(
      'scrape-http.vs-naive',
      `scrape-http >= ${GOAL_VS_NAIVE}x the naive pipeline's pages/s`,
      vsNaive,
      GOAL_VS_NAIVE,
      Number.isFinite(vsNaive) ? `${vsNaive.toFixed(1)}x (${ck} vs ${pps(NAIVE)} pages/s)` : 'naive row not run',
    ),
    goal(
      'scrape-http.vs-floor',
      `scrape-http within ${GOAL_VS_FLOOR}x of the parse-only floor`,
      floorOverCk,
      GOAL_VS_FLOOR,
      `floor ${floorOverCk.toFixed(2)}x crawlkit (${pps(FLOOR)} vs ${ck} pages/s)`,
      { atMost: true },
    ),
    goal(
      'scrape-http.vs-floor-pool',
      `scrape-http (worker pool on) within ${GOAL_VS_FLOOR_POOL}x of the parse-only floor (issue 21)`,
      floorOverCk,
      GOAL_VS_FLOOR_POOL,
      `floor ${floorOverCk.toFixed(2)}x crawlkit (${pps(FLOOR)} vs ${ck} pages/s)`,
      { atMost: true },
    ),
    goal(
      'scrape-http.batch-vs-floor',
      `batchScrape() at the default configuration within ${GOAL_VS_FLOOR}x of the parse-only floor (issue 37)`,
      floorOverBatch,
      GOAL_VS_FLOOR,
      `floor ${floorOverBatch.toFixed(2)}x batchScrape (${wholeRate('floor')} vs ${wholeRate('batch')} pages/s, ` +
        `${urls.length} pages as one job, median of ${WHOLE_ROUNDS} alternating rounds)`,
      { atMost: true },
    ),
    goal(
      'scrape-http.pool-vs-ceiling',
      `the worker pool's speed-up over one thread >= ${GOAL_OF_CEILING * 100}% of two bare threads' (issue 37)`,
      ofCeiling,
      GOAL_OF_CEILING,
      `${(ofCeiling * 100).toFixed(0)}% (pool ${vsOneThread.toFixed(2)}x one thread, two bare threads ` +
        `${ceiling.ratio.toFixed(2)}x; of the gain: ${(gainOfCeiling * 100).toFixed(0)}%)`,
    ),
    goal(
      'scrape-http.vs-one-thread',
      `scrape-http with its worker pool >= ${GOAL_VS_ONE_THREAD}x extraction on the main thread (workers.size 0)`,
      vsOneThread,
      GOAL_VS_ONE_THREAD,
      `${vsOneThread.toFixed(2)}x (${ck} vs ${pps(ONE_THREAD)} pages/s); two bare threads: ${ceiling.ratio.toFixed(2)}x`,
    ),
  ],
  data: {
    attribution: 'WCXB v1.0 by Murrough Foley, CC-BY-4.0',
    pages: pages.length,
    every,
    batch: BATCH,
    warmUpPages: warmPages.length,
    coldWarmUpPages: COLD_WARM_UP,
    defaultConcurrency: DEFAULT_CONCURRENCY,
    request: { formats: ['markdown', 'links'], onlyMainContent: true, maxAge: 0, storeInCache: false },
    engine: { store: 'memory', engine: 'http' },
    ...(profile ? { profile } : {}),
    threadCeiling: ceiling,
    errors: Object.fromEntries(specs.map((s, r) => [s.label, errorsOf(r)])),
    cpuPerPage: Object.fromEntries(specs.map((s, r) => [s.label, cpuPerPage(states[r]!.batches) ?? null])),
    perBatch: Object.fromEntries(specs.map((s, r) => [s.label, states[r]!.batches])),
  },
});

function profileNotes(p: ProfileSummary): string[] {
  const line = (h: HotSpot) =>
    `  ${(h.share * 100).toFixed(1).padStart(5)}%  ${String(h.selfMs).padStart(6)} ms  ${h.name}`;
  return [
    `\nwhere crawlkit's time goes (CPU profile of the one-thread row, extraction on the profiled thread, over ` +
      `${PROFILE_PAGES} pages: ${p.totalMs} ms, ${p.idleMs} ms of it idle; self time, share of the busy time)`,
    ' by file:',
    ...p.files.slice(0, 12).map(line),
    ' by function:',
    ...p.functions.slice(0, 15).map(line),
  ];
}
