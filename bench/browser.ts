/**
 * Browser benchmark: `pnpm bench:browser` (or build @crawlkit/actions and @crawlkit/fetcher, then
 * `pnpm exec node bench/browser.ts`).
 *
 * Rendered scrapes of the JavaScript fixture pages (`fixtures/site/js/`), crawlkit's Fetcher beside a plain
 * puppeteer loop on the same Chromium in the same run (one browser, a page per URL, `networkidle0`, `content()`):
 * - cold: a new engine per page (Chromium start included), p50/p95;
 * - warm, one page at a time: p50/p95 latency and pages per second;
 * - warm, 4 pages at a time: pages per second;
 * - peak memory: PSS (shared pages counted once) of this Node process plus every Chromium process it started;
 * - Chromium processes left after close.
 * Prints a table and writes bench/results/browser.json.
 *
 * Adding a runner (Crawlee's PuppeteerCrawler is planned): implement `Runner` and append it to `RUNNERS`.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';

import { Fetcher } from '@crawlkit/fetcher';
import puppeteer, { type Browser } from 'puppeteer-core';

import { startFixtureServer } from '../fixtures/server.ts';

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
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 4);
const WARM_PAGES = Number(process.env.BENCH_WARM_PAGES ?? 30);
const PARALLEL_PAGES = Number(process.env.BENCH_PARALLEL_PAGES ?? 40);
const CONCURRENCY = 4;

/** One engine under test: opens, renders a URL to HTML, closes. */
interface Runner {
  name: string;
  open(concurrency: number): Promise<{ render(url: string): Promise<string>; close(): Promise<void> }>;
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
        close: () => fetcher.close(),
      });
    },
  };
}

const puppeteerRunner: Runner = {
  name: 'plain puppeteer (networkidle0)',
  async open() {
    const browser: Browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      pipe: true,
      args: FLAGS,
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
      close: () => browser.close(),
    };
  },
};

// A Crawlee PuppeteerCrawler runner goes here (later issue).
const RUNNERS: Runner[] = [crawlkitRunner(true), crawlkitRunner(false), puppeteerRunner];

// ---- measurement helpers ----

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const ms = (v: number) => `${v.toFixed(0)} ms`;

/** Proportional set size of a process in bytes (shared pages split between their users, so sums are honest). */
function pss(pid: number | 'self'): number {
  const kb = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1];
  return Number(kb ?? 0) * 1024;
}

/** Memory (PSS) in bytes and count of the Chromium processes started by this benchmark. */
function chromiumRss(): { bytes: number; processes: number } {
  let bytes = 0;
  let processes = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmdline.includes('chrom') || !cmdline.includes('--user-data-dir')) continue;
      const ppidTree = isDescendant(Number(entry));
      if (!ppidTree) continue;
      bytes += pss(Number(entry));
      processes++;
    } catch {
      // The process ended meanwhile.
    }
  }
  return { bytes, processes };
}

/** Whether `pid` descends from this Node process (so other engineers' browsers are not counted). */
function isDescendant(pid: number): boolean {
  let current = pid;
  for (let depth = 0; depth < 10 && current > 1; depth++) {
    if (current === process.pid) return true;
    const stat = readFileSync(`/proc/${current}/stat`, 'utf8');
    current = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  }
  return false;
}

/** Chromium processes started by this run that are still alive (by profile directories of this process tree). */
function chromiumLeft(): number {
  return chromiumRss().processes;
}

class PeakMemory {
  peak = 0;
  #timer: NodeJS.Timeout | undefined;
  start(): void {
    this.peak = 0;
    this.#timer = setInterval(() => this.sample(), 100);
  }
  sample(): void {
    this.peak = Math.max(this.peak, pss('self') + chromiumRss().bytes);
  }
  stop(): number {
    clearInterval(this.#timer);
    this.sample();
    return this.peak;
  }
}

// ---- the run ----

const server = await startFixtureServer();
const urls = PAGES.map((p) => server.url + p);
const results: Record<string, unknown>[] = [];

for (const runner of RUNNERS) {
  // Cold: a new engine per page, Chromium start included.
  const cold: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const started = performance.now();
    const engine = await runner.open(1);
    const html = await engine.render(urls[i % urls.length]!);
    cold.push(performance.now() - started);
    await engine.close();
    if (html.length < 100) throw new Error(`${runner.name} rendered almost nothing for ${urls[i % urls.length]}`);
  }
  cold.sort((a, b) => a - b);

  // Warm, sequential.
  const memory = new PeakMemory();
  memory.start();
  const engine = await runner.open(CONCURRENCY);
  for (const url of urls) await engine.render(url); // warm-up
  const warm: number[] = [];
  const sequentialStart = performance.now();
  for (let i = 0; i < WARM_PAGES; i++) {
    const started = performance.now();
    await engine.render(urls[i % urls.length]!);
    warm.push(performance.now() - started);
  }
  const sequentialSeconds = (performance.now() - sequentialStart) / 1000;
  warm.sort((a, b) => a - b);

  // Warm, CONCURRENCY pages at a time.
  let next = 0;
  const parallelStart = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < PARALLEL_PAGES) {
        const i = next++;
        await engine.render(urls[i % urls.length]!);
      }
    }),
  );
  const parallelSeconds = (performance.now() - parallelStart) / 1000;
  const peakBytes = memory.stop();
  await engine.close();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const left = chromiumLeft();

  results.push({
    runner: runner.name,
    coldP50Ms: Math.round(percentile(cold, 0.5)),
    coldP95Ms: Math.round(percentile(cold, 0.95)),
    warmP50Ms: Math.round(percentile(warm, 0.5)),
    warmP95Ms: Math.round(percentile(warm, 0.95)),
    warmPagesPerSec: Number((WARM_PAGES / sequentialSeconds).toFixed(2)),
    parallelPagesPerSec: Number((PARALLEL_PAGES / parallelSeconds).toFixed(2)),
    peakMemoryMB: Math.round(peakBytes / 1024 / 1024),
    chromiumProcessesLeft: left,
  });
}
await server.close();

const table = results.map((r) => ({
  runner: r.runner,
  'cold p50': ms(r.coldP50Ms as number),
  'cold p95': ms(r.coldP95Ms as number),
  'warm p50': ms(r.warmP50Ms as number),
  'warm p95': ms(r.warmP95Ms as number),
  'warm pages/s (1 at a time)': r.warmPagesPerSec,
  [`warm pages/s (${CONCURRENCY} at a time)`]: r.parallelPagesPerSec,
  'peak memory (PSS, Node + Chromium)': `${r.peakMemoryMB as number} MB`,
  'Chromium left after close': r.chromiumProcessesLeft,
}));
console.log(
  `Rendered scrapes of ${PAGES.length} JS fixture pages (${availableParallelism()} CPUs, ${Math.round(totalmem() / 2 ** 30)} GiB)`,
);
console.table(table);

writeFileSync(
  new URL('./results/browser.json', import.meta.url),
  `${JSON.stringify(
    {
      node: process.version,
      date: new Date().toISOString(),
      cpus: availableParallelism(),
      pages: PAGES,
      coldRuns: COLD_RUNS,
      warmPages: WARM_PAGES,
      parallelPages: PARALLEL_PAGES,
      concurrency: CONCURRENCY,
      results,
    },
    null,
    2,
  )}\n`,
);
