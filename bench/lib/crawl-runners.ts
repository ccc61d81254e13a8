/**
 * The crawl benchmarks' runners and report rows (bench/crawl-http.ts: a generated site; bench/crawl-docs.ts: a real
 * docs site). Each runner crawls a site in its own process, started by `crawlRunner()`:
 *   - crawlkit: `ck.crawl({ url, limit })` with markdown (main content), its on-disk SQLite store, results read as
 *     they are stored through `ck.watch()`;
 *   - Crawlee: `CheerioCrawler` + turndown over the page body, `enqueueLinks` on the same host, `pushData` into its
 *     dataset, with its default on-disk storage (`crawlee-disk`) or in memory (`crawlee-memory`:
 *     `persistStorage: false`); min = max concurrency so every runner keeps the same number of requests in flight.
 * Each reports pages/minute, peak RSS (the process's VmHWM) and RSS and retained heap every `sampleEvery` pages.
 *
 *   node bench/lib/crawl-runners.ts --runner crawlkit --url URL   (env BENCH_PAGES, BENCH_CONCURRENCY,
 *   BENCH_SAMPLE_EVERY, and BENCH_CPU_PROF=DIR to write V8 CPU profiles of the runner's threads there)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { peakRssBytes } from './peak-rss.ts';
import { withRatios, type Row } from './report.ts';

export type RunnerName = 'crawlkit' | 'crawlee-disk' | 'crawlee-memory';

export interface CrawlSettings {
  /** The crawl's limit, the same for every runner (pages). */
  pages: number;
  /** Requests in flight (crawlkit's `concurrency`, Crawlee's min = max concurrency). */
  concurrency: number;
  /** RSS and retained heap are sampled after every this many pages. */
  sampleEvery: number;
}

export interface RunnerResult {
  runner: string;
  pages: number;
  seconds: number;
  /** CPU time of the runner's process over the crawl (every thread: user + system), seconds. */
  cpuSeconds: number;
  peakRssMiB: number;
  /** RSS in MiB after every `sampleEvery` pages. */
  rssAt: { pages: number; rssMiB: number; heapMiB: number; externalMiB: number }[];
  markdownChars: number;
}

export const rate = (r: RunnerResult): number => (r.pages / r.seconds) * 60;
const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
/** `1000` → `1k`, `300` → `300`: column labels of the memory samples. */
const count = (pages: number) => (pages % 1000 === 0 ? `${pages / 1000}k` : String(pages));

/** Samples RSS every 50 ms (where /proc has no VmHWM) and RSS and retained heap every `sampleEvery` pages. */
function memoryProbe(sampleEvery: number) {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
  const rssAt: RunnerResult['rssAt'] = [];
  return {
    page(count: number) {
      if (count % sampleEvery !== 0) return;
      const rss = process.memoryUsage.rss();
      // Runners start with --expose-gc: the heap is read after a full collection, i.e. what is really retained.
      (globalThis as { gc?: () => void }).gc?.();
      const usage = process.memoryUsage();
      rssAt.push({ pages: count, rssMiB: mib(rss), heapMiB: mib(usage.heapUsed), externalMiB: mib(usage.external) });
    },
    stop() {
      clearInterval(timer);
      // VmHWM is the process's exact peak resident set, unlike sampling.
      peak = Math.max(peak, process.memoryUsage.rss(), peakRssBytes() ?? 0);
      return { peakRssMiB: mib(peak), rssAt };
    },
  };
}

/** CPU seconds (user + system, every thread of the process) since `start` (a `process.cpuUsage()`). */
function cpuSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

async function runCrawlkit(url: string, settings: CrawlSettings): Promise<RunnerResult> {
  const { Crawlkit } = await import('crawlkit');
  const dir = mkdtempSync(join(tmpdir(), 'ck-bench-crawl-'));
  // CK_BENCH_WORKERS=N: another extraction pool size than the default, for an A/B of the default.
  const workers = process.env['CK_BENCH_WORKERS'];
  const ck = new Crawlkit({
    storeDir: dir,
    engine: 'http',
    concurrency: settings.concurrency,
    ...(workers ? { workers: { size: Number(workers) } } : {}),
  });
  const probe = memoryProbe(settings.sampleEvery);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const response = await ck.crawl({ url, limit: settings.pages, scrapeOptions: { formats: ['markdown'] } });
  if (!response.success) throw new Error(response.error);
  let pages = 0;
  let markdownChars = 0;
  for await (const doc of ck.watch(response.id)) {
    pages++;
    markdownChars += doc.markdown?.length ?? 0;
    probe.page(pages);
  }
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = cpuSince(cpu);
  const memory = probe.stop();
  await ck.close();
  rmSync(dir, { recursive: true, force: true });
  return { runner: 'crawlkit', pages, seconds, cpuSeconds, markdownChars, ...memory };
}

async function runCrawlee(url: string, settings: CrawlSettings, persistStorage: boolean): Promise<RunnerResult> {
  const dir = mkdtempSync(join(tmpdir(), 'crawlee-bench-'));
  process.env['CRAWLEE_STORAGE_DIR'] = dir;
  const { CheerioCrawler, Configuration, log, LogLevel } = await import('@crawlee/cheerio');
  const { default: TurndownService } = await import('turndown');
  log.setLevel(LogLevel.WARNING);
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  const probe = memoryProbe(settings.sampleEvery);
  let pages = 0;
  let markdownChars = 0;
  const crawler = new CheerioCrawler(
    {
      minConcurrency: settings.concurrency,
      maxConcurrency: settings.concurrency,
      maxRequestsPerCrawl: settings.pages,
      maxRequestRetries: 1,
      async requestHandler({ request, $, enqueueLinks, pushData }) {
        const markdown = turndown.turndown($('body').html() ?? '');
        await pushData({ url: request.loadedUrl ?? request.url, markdown });
        pages++;
        markdownChars += markdown.length;
        probe.page(pages);
        await enqueueLinks({ strategy: 'same-hostname' });
      },
    },
    new Configuration({ persistStorage }),
  );
  const cpu = process.cpuUsage();
  const started = performance.now();
  await crawler.run([url]);
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = cpuSince(cpu);
  const memory = probe.stop();
  rmSync(dir, { recursive: true, force: true });
  const runner = `crawlee (CheerioCrawler + turndown, ${persistStorage ? 'disk' : 'memory'} storage)`;
  return { runner, pages, seconds, cpuSeconds, markdownChars, ...memory };
}

/** Crawls `url` with `runner` in a child process (its own memory, its own CPU profile) and returns its result. */
export function crawlRunner(runner: RunnerName, url: string, settings: CrawlSettings): Promise<RunnerResult> {
  return new Promise((resolve, reject) => {
    const env = {
      ...process.env,
      BENCH_PAGES: String(settings.pages),
      BENCH_CONCURRENCY: String(settings.concurrency),
      BENCH_SAMPLE_EVERY: String(settings.sampleEvery),
    };
    const profile = process.env['BENCH_CPU_PROF'];
    const flags = ['--expose-gc', ...(profile ? ['--cpu-prof', '--cpu-prof-dir', join(profile, runner)] : [])];
    const args = [...flags, fileURLToPath(import.meta.url), '--runner', runner, '--url', url];
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.on('exit', (code) => {
      if (code !== 0) reject(new Error(`${runner} exited with ${code}`));
      else resolve(JSON.parse(out.trim().split('\n').at(-1) ?? 'null') as RunnerResult);
    });
  });
}

/** Runs every runner one after the other; a runner that crashes is a failure row, the others still run. */
export async function crawlAll(
  runners: readonly RunnerName[],
  url: string,
  settings: CrawlSettings,
): Promise<{ results: RunnerResult[]; failures: { runner: string; error: string }[] }> {
  const results: RunnerResult[] = [];
  const failures: { runner: string; error: string }[] = [];
  for (const runner of runners) {
    try {
      const result = await crawlRunner(runner, url, settings);
      process.stdout.write(
        `${result.runner}: ${result.pages} pages in ${result.seconds.toFixed(1)} s, peak RSS ${result.peakRssMiB} MiB\n`,
      );
      results.push(result);
    } catch (error) {
      failures.push({ runner, error: error instanceof Error ? error.message : String(error) });
      process.stdout.write(`${runner} failed: ${failures.at(-1)!.error}\n`);
    }
  }
  return { results, failures };
}

const missing: RunnerResult = {
  runner: 'none',
  pages: NaN,
  seconds: NaN,
  cpuSeconds: NaN,
  peakRssMiB: NaN,
  rssAt: [],
  markdownChars: NaN,
};

/** crawlkit's result and the faster Crawlee row (the goals' baseline), or rows of NaN where a runner is missing. */
export function crawlkitAndBaseline(results: readonly RunnerResult[]): {
  crawlkit: RunnerResult;
  crawlee: RunnerResult;
  speedup: number;
  /** `5.12x (4100 vs 800 pages/min; baseline: ...)`: the measured value of a speed goal. */
  speedValue: string;
} {
  const crawlkit = results.find((r) => r.runner === 'crawlkit') ?? missing;
  const crawlee =
    results
      .filter((r) => r.runner.startsWith('crawlee'))
      .reduce<RunnerResult | undefined>((best, r) => (best && rate(best) >= rate(r) ? best : r), undefined) ?? missing;
  const speedup = rate(crawlkit) / rate(crawlee);
  const cpuRatio = crawlee.cpuSeconds / crawlee.pages / (crawlkit.cpuSeconds / crawlkit.pages);
  const speedValue =
    `${speedup.toFixed(2)}x (${Math.round(rate(crawlkit))} vs ${Math.round(rate(crawlee))} pages/min; ` +
    `CPU per page ${cpuRatio.toFixed(2)}x less; baseline: ${crawlee.runner}, the faster Crawlee row)`;
  return { crawlkit, crawlee, speedup, speedValue };
}

/** The lower-peak-RSS goal's figures, against the same baseline as the speed goal: `goal(id, text, ...rssVsCrawlee(r))`. */
export function rssVsCrawlee(results: readonly RunnerResult[]): [measured: number, target: number, value: string] {
  const { crawlkit, crawlee } = crawlkitAndBaseline(results);
  return [
    crawlee.peakRssMiB - crawlkit.peakRssMiB,
    Number.MIN_VALUE,
    `${crawlkit.peakRssMiB} vs ${crawlee.peakRssMiB} MiB (${(crawlkit.peakRssMiB / crawlee.peakRssMiB).toFixed(2)}x; ` +
      `baseline: ${crawlee.runner}, the faster Crawlee row)`,
  ];
}

/** One table row per runner (pages/min, peak RSS, the memory samples) with their ratios to crawlkit's. */
export function crawlRows(results: readonly RunnerResult[], failures: readonly { runner: string; error: string }[]) {
  const rows: Row[] = results.map((r) => {
    const row: Row = {
      runner: r.runner,
      pages: r.pages,
      seconds: Math.round(r.seconds * 10) / 10,
      'pages/min': Math.round(rate(r)),
      'CPU ms/page': Math.round((r.cpuSeconds / r.pages) * 1000 * 10) / 10,
      'peak RSS MiB': r.peakRssMiB,
    };
    for (const sample of r.rssAt) row[`RSS@${count(sample.pages)}`] = sample.rssMiB;
    for (const sample of r.rssAt) row[`heap@${count(sample.pages)}`] = sample.heapMiB;
    return row;
  });
  for (const f of failures) rows.push({ runner: f.runner, pages: 0, seconds: null, 'pages/min': null, error: f.error });
  return withRatios(
    withRatios(rows, 'pages/min', 'crawlkit', 'runner'),
    'peak RSS MiB',
    'crawlkit',
    'runner',
    'RSS vs crawlkit',
  );
}

export const CRAWL_NOTES = [
  'Each crawler runs in its own process against the same site process; RSS is that process only.',
  'CPU ms/page: CPU time of the process (all its threads, user + system) over the crawl, per page: unlike ' +
    'pages/min it does not depend on how much of the machine the other work left the runner.',
  "'vs crawlkit' = the row's pages/min over crawlkit's; 'RSS vs crawlkit' = its peak RSS over crawlkit's.",
  'RSS@N: process RSS after N pages; heap@N: V8 heap after a forced full GC at that point (what is retained).',
  'RSS above the retained heap is V8 letting its heap grow under allocation pressure, not data kept.',
];

/** Starts a site server script (`node <script> ...args`, printing `{"url": ...}`) in its own process. */
export async function startSiteProcess(script: string, args: readonly string[]) {
  // The site in its own process: its CPU is shared by every runner alike, its memory counts for none.
  const server = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    server.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    server.stdout.once('data', (chunk: Buffer) => resolve((JSON.parse(chunk.toString()) as { url: string }).url));
  });
  return { url, stop: () => server.kill() };
}

// The runner process: `node bench/lib/crawl-runners.ts --runner NAME --url URL`, its result as JSON on stdout.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1]!;
  const settings: CrawlSettings = {
    pages: Number(process.env['BENCH_PAGES']),
    concurrency: Number(process.env['BENCH_CONCURRENCY']),
    sampleEvery: Number(process.env['BENCH_SAMPLE_EVERY']),
  };
  const runner = arg('--runner') as RunnerName;
  const url = arg('--url');
  const result =
    runner === 'crawlkit'
      ? await runCrawlkit(url, settings)
      : await runCrawlee(url, settings, runner === 'crawlee-disk');
  process.stdout.write(`${JSON.stringify(result)}\n`);
  // Crawlee leaves timers behind; --cpu-prof still writes its profiles on exit().
  process.exit(0);
}
