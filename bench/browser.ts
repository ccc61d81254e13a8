/**
 * Browser benchmark: `pnpm bench:browser` (or build @crawlkit/actions and @crawlkit/fetcher, then
 * `pnpm exec node bench/browser.ts`).
 *
 * Rendered scrapes of the JavaScript fixture pages (`fixtures/site/js/`), crawlkit's Fetcher (with and without
 * `blockAds`) beside Crawlee's PuppeteerCrawler (bench/lib/crawlee-puppeteer.ts) and a plain puppeteer loop on the
 * same Chromium (one browser, a context per URL, `networkidle0`, `content()`). The machine is shared, so the runners are interleaved (page by page, batch by batch) to meet the same
 * load:
 * - cold: a new engine per page (Chromium start included), p50/p95;
 * - warm, one page at a time: p50/p95 latency and pages per second;
 * - warm, 4 pages at a time: pages per second;
 * - peak memory: PSS (shared pages counted once) of each runner's Chromium processes, and of this Node process;
 * - Chromium processes left after close.
 * Prints a table and writes bench/results/browser.json (bench/lib/report.ts format, goals of issue 11).
 * `--quick` (or BENCH_QUICK=1): 1 cold run, 6 warm pages, 8 pages 4 at a time.
 *
 * Adding a runner: implement `Runner` and append it to `RUNNERS`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Fetcher } from '@crawlkit/fetcher';
import puppeteer, { type Browser } from 'puppeteer-core';

import { startFixtureServer } from '../fixtures/server.ts';
import { openCrawleePuppeteer } from './lib/crawlee-puppeteer.ts';
import { finish, goal, isQuick, withRatios } from './lib/report.ts';

const CHROMIUM = process.env.CRAWLKIT_CHROMIUM ?? '/usr/bin/chromium';
const ISOLATED = ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'];
const FLAGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  ...ISOLATED,
];
const PAGES = process.env.BENCH_PAGES?.split(',') ?? [
  '/js/rendered.html',
  '/js/app-shell.html',
  '/js/noscript.html',
  '/js/load-more.html',
  '/js/infinite.html',
  '/js/consent.html',
];
const quick = isQuick();
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? (quick ? 1 : 4));
const WARM_PAGES = Number(process.env.BENCH_WARM_PAGES ?? (quick ? 6 : 30));
const PARALLEL_PAGES = Number(process.env.BENCH_PARALLEL_PAGES ?? (quick ? 8 : 40));
const CONCURRENCY = 4;

/** One engine under test: opens, renders a URL to HTML, closes; `profiles()` names its Chromium profile directories. */
interface Runner {
  name: string;
  open(concurrency: number): Promise<Engine>;
}
interface Engine {
  render(url: string): Promise<string>;
  profiles(): string[];
  close(): Promise<void>;
}

/** crawlkit's Fetcher forced to the browser; `blockAds` on (v2's default) also dismisses cookie banners. */
function crawlkitRunner(blockAds: boolean): Runner {
  return {
    name: `crawlkit Fetcher (browser, blockAds: ${blockAds})`,
    open(concurrency) {
      const fetcher = new Fetcher({
        browser: { args: ISOLATED, maxConcurrentPages: concurrency },
        urlPolicy: { allowedHosts: ['127.0.0.1'] },
      });
      return Promise.resolve({
        render: async (url: string) => (await fetcher.fetch({ url, engine: 'browser', blockAds })).text ?? '',
        profiles: () => fetcher.browserStats.profiles,
        close: () => fetcher.close(),
      });
    },
  };
}

const puppeteerRunner: Runner = {
  name: 'plain puppeteer (networkidle0)',
  async open() {
    const userDataDir = mkdtempSync(join(tmpdir(), 'bench-puppeteer-'));
    const browser: Browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      pipe: true,
      args: FLAGS,
      userDataDir,
    });
    return {
      async render(url) {
        const context = await browser.createBrowserContext();
        try {
          const page = await context.newPage();
          await page.goto(url, { waitUntil: 'networkidle0', timeout: 30_000 });
          return await page.content();
        } finally {
          await context.close();
        }
      },
      profiles: () => [userDataDir],
      async close() {
        await browser.close();
        rmSync(userDataDir, { recursive: true, force: true });
      },
    };
  },
};

const crawleeRunner: Runner = {
  name: 'Crawlee PuppeteerCrawler (networkidle0)',
  open: (concurrency) => Promise.resolve(openCrawleePuppeteer(CHROMIUM, FLAGS, concurrency)),
};

const CRAWLKIT = 'crawlkit Fetcher (browser, blockAds: true)';
const CRAWLEE = crawleeRunner.name;
const RUNNERS: Runner[] = [crawlkitRunner(true), crawlkitRunner(false), crawleeRunner, puppeteerRunner];

// ---- measurement helpers ----

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** Proportional set size of a process in bytes (shared pages split between their users, so sums are honest). */
function pss(pid: number | 'self'): number {
  try {
    const kb = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1];
    return Number(kb ?? 0) * 1024;
  } catch {
    return 0; // The process ended meanwhile.
  }
}

/** Pids whose command line names one of `profiles`. */
function processesOf(profiles: readonly string[]): number[] {
  if (profiles.length === 0) return [];
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (profiles.some((profile) => cmdline.includes(profile))) pids.push(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return pids;
}

/** Peak PSS of each engine's Chromium processes, and of this Node process, sampled every 200 ms. */
class PeakMemory {
  readonly peaks = new Map<Engine, number>();
  node = 0;
  #timer: NodeJS.Timeout | undefined;
  readonly engines: Engine[];
  constructor(engines: Engine[]) {
    this.engines = engines;
  }
  start(): void {
    this.#timer = setInterval(() => this.sample(), 200);
  }
  sample(): void {
    this.node = Math.max(this.node, pss('self'));
    for (const engine of this.engines) {
      const bytes = processesOf(engine.profiles()).reduce((sum, pid) => sum + pss(pid), 0);
      this.peaks.set(engine, Math.max(this.peaks.get(engine) ?? 0, bytes));
    }
  }
  stop(): void {
    clearInterval(this.#timer);
    this.sample();
  }
}

// ---- the run ----

const server = await startFixtureServer();
const urls = PAGES.map((p) => server.url + p);

/** Renders `url`; a failure (a timeout on an overloaded machine, say) is counted for the runner, not fatal. */
const failures = RUNNERS.map(() => 0);
async function tryRender(r: number, engine: Engine, url: string): Promise<string> {
  try {
    const html = await engine.render(url);
    if (html.length < 100) failures[r]!++; // rendered almost nothing
    return html;
  } catch {
    failures[r]!++;
    return '';
  }
}

// Cold: a new engine per page (Chromium start included), runners taking turns.
const cold = RUNNERS.map(() => [] as number[]);
for (let i = 0; i < COLD_RUNS; i++) {
  for (const [r, runner] of RUNNERS.entries()) {
    const url = urls[i % urls.length]!;
    const started = performance.now();
    const engine = await runner.open(1);
    await tryRender(r, engine, url);
    cold[r]!.push(performance.now() - started);
    await engine.close();
  }
}

// Warm: every runner's engine open, pages taken in turns.
const engines = await Promise.all(RUNNERS.map((runner) => runner.open(CONCURRENCY)));
const memory = new PeakMemory(engines);
memory.start();
for (const [r, engine] of engines.entries()) for (const url of urls) await tryRender(r, engine, url); // warm-up
const warm = RUNNERS.map(() => [] as number[]);
for (let i = 0; i < WARM_PAGES; i++) {
  for (const [r, engine] of engines.entries()) {
    const started = performance.now();
    await tryRender(r, engine, urls[i % urls.length]!);
    warm[r]!.push(performance.now() - started);
  }
}

// Warm, CONCURRENCY pages at a time: batches of 2 × CONCURRENCY pages, runners taking turns.
const parallelMs = RUNNERS.map(() => 0);
const BATCH = CONCURRENCY * 2;
for (let done = 0; done < PARALLEL_PAGES; done += BATCH) {
  for (const [r, engine] of engines.entries()) {
    let next = done;
    const end = Math.min(PARALLEL_PAGES, done + BATCH);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < end) await tryRender(r, engine, urls[next++ % urls.length]!);
      }),
    );
    parallelMs[r]! += performance.now() - started;
  }
}
memory.stop();

const results: Record<string, unknown>[] = [];
for (const [r, runner] of RUNNERS.entries()) {
  const engine = engines[r]!;
  const profiles = engine.profiles();
  await engine.close();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const sortedCold = cold[r]!.sort((a, b) => a - b);
  const sortedWarm = warm[r]!.sort((a, b) => a - b);
  const warmSeconds = sortedWarm.reduce((a, b) => a + b, 0) / 1000;
  results.push({
    runner: runner.name,
    coldP50Ms: Math.round(percentile(sortedCold, 0.5)),
    coldP95Ms: Math.round(percentile(sortedCold, 0.95)),
    warmP50Ms: Math.round(percentile(sortedWarm, 0.5)),
    warmP95Ms: Math.round(percentile(sortedWarm, 0.95)),
    warmPagesPerSec: Number((WARM_PAGES / warmSeconds).toFixed(2)),
    parallelPagesPerSec: Number((PARALLEL_PAGES / (parallelMs[r]! / 1000)).toFixed(2)),
    peakChromiumMB: Math.round((memory.peaks.get(engine) ?? 0) / 2 ** 20),
    chromiumProcessesLeft: processesOf(profiles).length,
    failed: failures[r],
  });
}
await server.close();

const nodeMB = Math.round(memory.node / 2 ** 20);
const PARALLEL = `pages/s (${CONCURRENCY} at a time)`;
const rows = results.map((r) => ({
  runner: r.runner as string,
  'cold p50 ms': r.coldP50Ms as number,
  'cold p95 ms': r.coldP95Ms as number,
  'warm p50 ms': r.warmP50Ms as number,
  'warm p95 ms': r.warmP95Ms as number,
  'pages/s (1 at a time)': r.warmPagesPerSec as number,
  [PARALLEL]: r.parallelPagesPerSec as number,
  'peak Chromium PSS MB': r.peakChromiumMB as number,
  'Chromium left': r.chromiumProcessesLeft as number,
  failed: r.failed as number,
}));
const parallelOf = (name: string): number => {
  const v = rows.find((r) => r.runner === name)?.[PARALLEL];
  return typeof v === 'number' ? v : Number.NaN;
};
const vsCrawlee = parallelOf(CRAWLKIT) / parallelOf(CRAWLEE);
const crawlkitLeft = results
  .filter((r) => (r.runner as string).startsWith('crawlkit'))
  .reduce((a, r) => a + (r.chromiumProcessesLeft as number), 0);
const othersLeft = results
  .filter((r) => !(r.runner as string).startsWith('crawlkit'))
  .map((r) => `${r.runner as string}: ${r.chromiumProcessesLeft as number}`)
  .join(', ');

finish({
  name: 'browser',
  title: `browser: rendered scrapes of ${PAGES.length} JS fixture pages, runners interleaved page by page and batch by batch`,
  quick,
  rows: withRatios(rows, PARALLEL, CRAWLKIT, 'runner'),
  notes: [
    `'vs crawlkit' = pages/s ${CONCURRENCY} at a time over crawlkit's (blockAds: true, v2's default). Peak PSS of the Node process (all runners together): ${nodeMB} MB`,
  ],
  goals: [
    goal(
      'browser.vs-crawlee',
      "browser >= 1.3x Crawlee's rendered pages/s",
      vsCrawlee,
      1.3,
      `${vsCrawlee.toFixed(2)}x (${parallelOf(CRAWLKIT)} vs ${parallelOf(CRAWLEE)} pages/s, ${CONCURRENCY} at a time)`,
    ),
    goal(
      'browser.leftovers',
      'browser: zero Chromium processes left',
      crawlkitLeft,
      0,
      `crawlkit ${crawlkitLeft} (${othersLeft})`,
      { atMost: true },
    ),
  ],
  data: {
    pages: PAGES,
    coldRuns: COLD_RUNS,
    warmPages: WARM_PAGES,
    parallelPages: PARALLEL_PAGES,
    concurrency: CONCURRENCY,
    nodePeakMB: nodeMB,
    results,
  },
});
