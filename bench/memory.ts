/**
 * Where a long job's memory goes: `pnpm bench:memory` (= `pnpm build && node bench/memory.ts`).
 *
 * At crawlkit's defaults (on-disk SQLite store, page cache, extraction worker pool, HTTP engine), each run in a child
 * process of its own (bench/lib/memory-child.ts), its resident memory broken down (bench/lib/memory-breakdown.ts) at
 * every tenth of the pages: V8's heaps (main thread, worker threads), `ArrayBuffer`s, and /proc/self/smaps by kind of
 * mapping (the node binary, glibc's brk heap and its other arenas, the other anonymous mappings, which are V8's
 * pages for the most part).
 * - batch: a `batchScrape()` of the WCXB dev pages (each page again under a new query until `--pages`, so that the
 *   page cache misses), served by a process of their own;
 * - crawl: a `crawl()` of the generated site of `bench:crawl` (limit `--pages`);
 * - serve: `crawlkit serve`'s app (`@crawlkit/server`) given 20 jobs over HTTP (10 batches of 100 dev pages, 10
 *   crawls of 100 pages), sampled after each.
 * Options: `--pages N` (3,000; `--quick` 300), `--runs batch,crawl,serve`, `--arena-max N` (each run again with
 * MALLOC_ARENA_MAX=N), `--small` (each run again with `workers: { size: 1 }, concurrency: 4`, MALLOC_ARENA_MAX=2 and
 * NODE_OPTIONS='--max-old-space-size=192 --max-semi-space-size=4': the small-container setting of the README),
 * `--setting '{"name", "options", "env"}'` (another setting: engine options and environment, repeatable),
 * `--rounds N` (all of it N times), `--no-defaults` (only the other settings). `CK_BENCH_BASE=<other build's
 * packages/crawlkit/dist/index.js>` runs every row on that build too. Writes bench/results/memory.json.
 *
 * Data: WCXB v1.0 by Murrough Foley, CC-BY-4.0 (read from ../shared/datasets/wcxb-dev, never copied here).
 */
import { fork, spawn } from 'node:child_process';
import { join } from 'node:path';

import { abBuilds, numberOption } from './lib/ab-builds.ts';
import type { MemorySample } from './lib/memory-breakdown.ts';
import type { MemoryRun } from './lib/memory-child.ts';
import { serveGeneratedSite } from './lib/generated-site.ts';
import { startPageServerProcess } from './lib/page-server-process.ts';
import { finish, isQuick, type Row } from './lib/report.ts';
import { loadWcxbPages } from './lib/wcxb.ts';

const args = process.argv.slice(2);
const quick = isQuick(args);
const PAGES = numberOption('--pages', quick ? 300 : 3000, args);
const at = args.indexOf('--runs');
const RUNS = (at >= 0 ? args[at + 1]! : 'batch,crawl,serve').split(',');
const ARENA_MAX = args.includes('--arena-max') ? numberOption('--arena-max', 2, args) : undefined;
const SERVE_JOBS = quick ? 4 : 20;
const ROUNDS = numberOption('--rounds', 1, args);
const CHILD = join(import.meta.dirname, 'lib', 'memory-child.ts');
const datasetRoot = process.env['CK_DATASETS'] ?? join(import.meta.dirname, '../../shared/datasets');
/** The small-container setting the README gives (checked here). */
const SMALL = {
  options: { workers: { size: 1 }, concurrency: 4 },
  env: { MALLOC_ARENA_MAX: '2', NODE_OPTIONS: '--max-old-space-size=192 --max-semi-space-size=4' },
};
const SMALL_NAME = 'small (1 worker, c=4, 2 arenas, heap 192, semi-space 4)';

interface Setting {
  name: string;
  env: Record<string, string>;
  options?: Record<string, unknown>;
}
const settings: Setting[] = [
  ...(args.includes('--no-defaults') ? [] : [{ name: 'defaults', env: {} }]),
  ...(ARENA_MAX === undefined
    ? []
    : [{ name: `MALLOC_ARENA_MAX=${ARENA_MAX}`, env: { MALLOC_ARENA_MAX: `${ARENA_MAX}` } }]),
  ...(args.includes('--small') ? [{ name: SMALL_NAME, ...SMALL }] : []),
  // --setting '{"name":"...","options":{...},"env":{...}}': another setting to measure (repeatable).
  ...args.flatMap((arg, i) => (arg === '--setting' ? [JSON.parse(args[i + 1]!) as Setting] : [])),
];

// The pages are served by a process of their own; only their ids stay here.
const { ids, dev } = await (async () => {
  const pages = loadWcxbPages(join(datasetRoot, 'wcxb-dev'));
  const server = await startPageServerProcess(new Map(pages.map((p) => [`/${p.id}.html`, p.html])));
  return { ids: pages.map((p) => p.id), dev: server };
})();
const site = await serveGeneratedSite({ pages: Math.max(PAGES, 5000), linksPerPage: 10 });

/** Runs a batch or a crawl in a child; its last stdout line is the run. */
function runChild(entry: string, setting: Setting, mode: string): Promise<MemoryRun> {
  const argv =
    mode === 'batch' ? [entry, mode, String(PAGES), dev.url, ids.join(',')] : [entry, mode, String(PAGES), site.url];
  const child = spawn(process.execPath, [CHILD, ...argv], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...setting.env, CK_BENCH_OPTIONS: JSON.stringify(setting.options ?? {}) },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += String(d)));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as MemoryRun)
        : reject(new Error(`${mode}: ${code}`)),
    ),
  );
}

/** `serve` in a child, given SERVE_JOBS jobs one after the other over its v2 API, sampled after each. */
async function runServe(entry: string, setting: Setting): Promise<MemoryRun> {
  const child = fork(CHILD, [entry, 'serve'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...setting.env, CK_BENCH_OPTIONS: JSON.stringify(setting.options ?? {}) },
  });
  const next = () => new Promise<Record<string, unknown>>((resolve) => child.once('message', resolve));
  const { url } = (await next()) as { url: string };
  const samples: MemoryRun['samples'] = [];
  let done = 0;
  const t0 = performance.now();
  for (let job = 0; job < SERVE_JOBS; job++) {
    const crawl = job % 2 === 1;
    const body = crawl
      ? { url: `${site.url}/?job=${job}`, limit: 100 }
      : { urls: ids.slice((job / 2) * 100, (job / 2) * 100 + 100).map((id) => `${dev.url}/${id}.html?job=${job}`) };
    const path = crawl ? '/v2/crawl' : '/v2/batch/scrape';
    const started = (await (
      await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json()) as { id: string };
    for (;;) {
      const status = (await (await fetch(`${url}${path}/${started.id}?limit=1`)).json()) as {
        status: string;
        completed: number;
      };
      if (status.status !== 'scraping') {
        done += status.completed;
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    child.send({ sample: done });
    samples.push((await next())['sample'] as MemoryRun['samples'][number]);
  }
  const seconds = (performance.now() - t0) / 1000;
  child.send({ exit: true });
  samples.push((await next())['sample'] as MemoryRun['samples'][number]);
  return { mode: 'serve', pages: done, failed: 0, seconds, samples };
}

const rows: Row[] = [];
const runs: Record<string, MemoryRun> = {};
const round1 = (x: number) => Math.round(x * 10) / 10;
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of RUNS) {
    for (const setting of settings) {
      // Two builds alternate their order between rounds (neither always on the warmer machine).
      for (const [build, entry] of round % 2 ? [...abBuilds()].reverse() : abBuilds()) {
        const run = mode === 'serve' ? await runServe(entry, setting) : await runChild(entry, setting, mode);
        const which = abBuilds().length > 1 ? `, ${build}` : '';
        const label = `${mode}, ${setting.name}${which}${ROUNDS > 1 ? `, round ${round + 1}` : ''}`;
        runs[label] = run;
        const end = run.samples.at(-2)!;
        const peak = Math.max(...run.samples.map((s) => s.peakRss));
        rows.push({
          run: label,
          pages: run.pages,
          'pages/s': round1(run.pages / run.seconds),
          'peak RSS': peak,
          'RSS at 50%': run.samples[Math.floor((run.samples.length - 1) / 2)]!.rss,
          'RSS at end': end.rss,
          ...breakdown(end),
        });
        console.log(`  ${label}: ${run.pages} pages, ${rows.at(-1)!['pages/s']} pages/s, peak RSS ${peak} MiB`);
      }
    }
  }
}
await dev.close();
await site.close();

/** The end sample's RSS by owner, MiB. */
function breakdown(s: MemorySample): Row {
  return {
    'main heap (used)': `${s.mainHeap} (${s.mainHeapUsed})`,
    'workers heap (used)': `${s.workersHeap} (${s.workersHeapUsed})`,
    arrayBuffers: s.arrayBuffers,
    'malloc brk + arenas (n)': `${s.maps['brk heap']} + ${s.maps['arena heaps']} (${s.arenas})`,
    'other anon': round1(s.maps.anon - s.mainHeap - s.workersHeap),
    'node binary': s.maps.binary,
  };
}

finish({
  name: 'memory',
  title: `memory: where a job's RSS goes at crawlkit's defaults (${PAGES} pages; serve: ${SERVE_JOBS} jobs), MiB`,
  quick,
  columns: [
    'run',
    'pages',
    'pages/s',
    'peak RSS',
    'RSS at 50%',
    'RSS at end',
    'main heap (used)',
    'workers heap (used)',
    'arrayBuffers',
    'malloc brk + arenas (n)',
    'other anon',
    'node binary',
  ],
  rows,
  goals: [],
  notes: [
    "Breakdown at the last page (serve: after the last job). Heaps: V8's physical pages ('used': live and not yet",
    "collected). 'malloc': glibc's brk heap and the 64 MiB heaps of its other arenas (ArrayBuffers, SQLite, V8's and",
    "Node's own mallocs); 'other anon': anonymous mappings less the V8 heaps (large mallocs, thread stacks).",
  ],
  data: { pages: PAGES, serveJobs: SERVE_JOBS, attribution: 'WCXB v1.0 by Murrough Foley, CC-BY-4.0', runs },
});
