/**
 * Crawl throughput and memory with the HTTP engine: `pnpm bench:crawl` (`--quick`: 200 pages, no Crawlee disk-storage row: a smoke check).
 *
 * A deterministic generated site (bench/lib/generated-site.ts: 5,000 pages of ~10–30 KB, nav + article, a tree
 * that BFS covers, seeded cross links) is served by its own process. Each crawler then runs in its own process, one
 * after the other, at the same concurrency, on the same site:
 *   - crawlkit: `ck.crawl({ url, limit })` with markdown (main content), its on-disk SQLite store, results read as
 *     they are stored through `ck.watch()`;
 *   - Crawlee: `CheerioCrawler` + turndown over the page body, `enqueueLinks` on the same host, `pushData` into its
 *     dataset, once with its default on-disk storage and once in memory (`persistStorage: false`); min = max
 *     concurrency so every runner keeps the same number of requests in flight.
 * Each runner reports pages/minute, peak RSS (the process's VmHWM) and RSS and retained heap at every fifth of the
 * pages, to show whether memory stays flat as the crawl grows. The baseline of the goals (issue 11: >= 1.5x Crawlee's
 * pages/min, lower peak RSS) is the faster of the two Crawlee rows, named in the goal. Writes
 * bench/results/crawl-http.json.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { peakRssBytes } from './lib/peak-rss.ts';
import { finish, goal, isQuick, withRatios, type Row } from './lib/report.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const quick = isQuick();
const PAGES = Number(process.env['BENCH_PAGES'] ?? (quick ? 200 : 5000));
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 16);
const LINKS_PER_PAGE = 10;
/** Memory is sampled after every fifth of the pages (1,000 in the full run). */
const SAMPLE_EVERY = Math.max(1, Math.round(PAGES / 5));
const GOAL_VS_CRAWLEE = 1.5;
const GOAL_HEAP_GROWTH = 1.3;
/** `BENCH_RUNNERS=crawlkit` runs a subset (the table then has no baseline). --quick leaves out Crawlee's slower
 * disk storage (the goals' baseline is the faster Crawlee row). */
const RUNNERS = (
  process.env['BENCH_RUNNERS'] ?? (quick ? 'crawlkit,crawlee-memory' : 'crawlkit,crawlee-disk,crawlee-memory')
).split(',');

interface RunnerResult {
  runner: string;
  pages: number;
  seconds: number;
  peakRssMiB: number;
  /** RSS in MiB after every SAMPLE_EVERY pages. */
  rssAt: { pages: number; rssMiB: number; heapMiB: number; externalMiB: number }[];
  markdownChars: number;
}

const rate = (r: RunnerResult) => (r.pages / r.seconds) * 60;
const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
/** `1000` → `1k`, `300` → `300`: column labels of the memory samples. */
const count = (pages: number) => (pages % 1000 === 0 ? `${pages / 1000}k` : String(pages));

/** The process's peak resident set (VmHWM) in bytes: exact, unlike sampling. */
const highWaterMark = (): number => peakRssBytes() ?? 0;

/** Samples RSS every 50 ms (where /proc has no VmHWM) and RSS and retained heap at every SAMPLE_EVERY pages. */
function memoryProbe() {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
  const rssAt: RunnerResult['rssAt'] = [];
  return {
    page(count: number) {
      if (count % SAMPLE_EVERY !== 0) return;
      const rss = process.memoryUsage.rss();
      // Runners start with --expose-gc: the heap is read after a full collection, i.e. what is really retained.
      (globalThis as { gc?: () => void }).gc?.();
      const usage = process.memoryUsage();
      rssAt.push({
        pages: count,
        rssMiB: mib(rss),
        heapMiB: mib(usage.heapUsed),
        externalMiB: mib(usage.external),
      });
    },
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage.rss(), highWaterMark());
      return { peakRssMiB: mib(peak), rssAt };
    },
  };
}

async function runCrawlkit(url: string): Promise<RunnerResult> {
  const { Crawlkit } = await import('crawlkit');
  const dir = mkdtempSync(join(tmpdir(), 'ck-bench-crawl-'));
  const ck = new Crawlkit({ storeDir: dir, engine: 'http', concurrency: CONCURRENCY });
  const probe = memoryProbe();
  const started = performance.now();
  const response = await ck.crawl({ url: `${url}/`, limit: PAGES, scrapeOptions: { formats: ['markdown'] } });
  if (!response.success) throw new Error(response.error);
  let pages = 0;
  let markdownChars = 0;
  for await (const doc of ck.watch(response.id)) {
    pages++;
    markdownChars += doc.markdown?.length ?? 0;
    probe.page(pages);
  }
  const seconds = (performance.now() - started) / 1000;
  const memory = probe.stop();
  await ck.close();
  rmSync(dir, { recursive: true, force: true });
  return { runner: 'crawlkit', pages, seconds, markdownChars, ...memory };
}

async function runCrawlee(url: string, persistStorage: boolean): Promise<RunnerResult> {
  const dir = mkdtempSync(join(tmpdir(), 'crawlee-bench-'));
  process.env['CRAWLEE_STORAGE_DIR'] = dir;
  const { CheerioCrawler, Configuration, log, LogLevel } = await import('@crawlee/cheerio');
  const { default: TurndownService } = await import('turndown');
  log.setLevel(LogLevel.WARNING);
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  const probe = memoryProbe();
  let pages = 0;
  let markdownChars = 0;
  const crawler = new CheerioCrawler(
    {
      minConcurrency: CONCURRENCY,
      maxConcurrency: CONCURRENCY,
      maxRequestsPerCrawl: PAGES,
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
  const started = performance.now();
  await crawler.run([`${url}/`]);
  const seconds = (performance.now() - started) / 1000;
  const memory = probe.stop();
  rmSync(dir, { recursive: true, force: true });
  const runner = `crawlee (CheerioCrawler + turndown, ${persistStorage ? 'disk' : 'memory'} storage)`;
  return { runner, pages, seconds, markdownChars, ...memory };
}

/** Runs `node bench/crawl-http.ts --runner <name> --url <url>` and returns its last stdout line as JSON. */
function child<T>(args: string[], onLine?: (line: string) => boolean): Promise<T> {
  return new Promise((resolve, reject) => {
    // The runner gets this run's size whether it was chosen by --quick, BENCH_QUICK or BENCH_PAGES.
    const env = { ...process.env, BENCH_PAGES: String(PAGES) };
    const proc = spawn(process.execPath, ['--expose-gc', ...args], { stdio: ['ignore', 'pipe', 'inherit'], env });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.trim().split('\n').at(-1) ?? '';
      if (onLine?.(line)) resolve(JSON.parse(line) as T);
    });
    proc.on('exit', (code) => {
      if (code !== 0 && code !== null) reject(new Error(`${args.join(' ')} exited with ${code}`));
      else resolve(JSON.parse(out.trim().split('\n').at(-1) ?? 'null') as T);
    });
  });
}

async function main(): Promise<void> {
  const runnerIndex = process.argv.indexOf('--runner');
  if (runnerIndex > 0) {
    const name = process.argv[runnerIndex + 1];
    const url = process.argv[process.argv.indexOf('--url') + 1]!;
    const result = name === 'crawlkit' ? await runCrawlkit(url) : await runCrawlee(url, name === 'crawlee-disk');
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  }

  // The site in its own process: its CPU is shared by both runs alike, its memory counts for neither.
  const siteArgs = [
    join(here, 'lib', 'generated-site.ts'),
    '--pages',
    String(PAGES),
    '--links',
    String(LINKS_PER_PAGE),
  ];
  const server = spawn(process.execPath, siteArgs, { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve) => {
    server.stdout.once('data', (chunk: Buffer) => resolve((JSON.parse(chunk.toString()) as { url: string }).url));
  });

  const results: RunnerResult[] = [];
  const failures: { runner: string; error: string }[] = [];
  try {
    for (const runner of RUNNERS) {
      try {
        const result = await child<RunnerResult>([fileURLToPath(import.meta.url), '--runner', runner, '--url', url]);
        process.stdout.write(
          `${result.runner}: ${result.pages} pages in ${result.seconds.toFixed(1)} s, peak RSS ${result.peakRssMiB} MiB\n`,
        );
        results.push(result);
      } catch (error) {
        // A runner that crashes is a row saying so; the others still run and the result file is still written.
        failures.push({ runner, error: error instanceof Error ? error.message : String(error) });
        process.stdout.write(`${runner} failed: ${failures.at(-1)!.error}\n`);
      }
    }
  } finally {
    server.kill();
  }

  const rows: Row[] = results.map((r) => {
    const row: Row = {
      runner: r.runner,
      pages: r.pages,
      seconds: Math.round(r.seconds * 10) / 10,
      'pages/min': Math.round((r.pages / r.seconds) * 60),
      'peak RSS MiB': r.peakRssMiB,
    };
    for (const sample of r.rssAt) row[`RSS@${count(sample.pages)}`] = sample.rssMiB;
    for (const sample of r.rssAt) row[`heap@${count(sample.pages)}`] = sample.heapMiB;
    return row;
  });
  for (const f of failures) rows.push({ runner: f.runner, pages: 0, seconds: null, 'pages/min': null, error: f.error });
  const missing: RunnerResult = {
    runner: 'none',
    pages: NaN,
    seconds: NaN,
    peakRssMiB: NaN,
    rssAt: [],
    markdownChars: NaN,
  };
  const crawlkit = results.find((r) => r.runner === 'crawlkit') ?? missing;
  // The faster Crawlee configuration is the baseline of both goals.
  const crawlee =
    results
      .filter((r) => r.runner.startsWith('crawlee'))
      .reduce<RunnerResult | undefined>((best, r) => (best && rate(best) >= rate(r) ? best : r), undefined) ?? missing;
  const first = crawlkit.rssAt[0]?.heapMiB ?? NaN;
  const last = crawlkit.rssAt.at(-1)?.heapMiB ?? NaN;
  const growth = last / first;
  const speedup = rate(crawlkit) / rate(crawlee);
  const baseline = `baseline: ${crawlee.runner}, the faster Crawlee row`;
  finish({
    name: 'crawl-http',
    title: `Crawl of a ${PAGES}-page generated site, HTTP engine, markdown, concurrency ${CONCURRENCY}`,
    quick,
    rows: withRatios(
      withRatios(rows, 'pages/min', 'crawlkit', 'runner'),
      'peak RSS MiB',
      'crawlkit',
      'runner',
      'RSS vs crawlkit',
    ),
    goals: [
      goal(
        'crawl-http.vs-crawlee',
        `crawl-http >= ${GOAL_VS_CRAWLEE}x Crawlee's pages/min with markdown on`,
        speedup,
        GOAL_VS_CRAWLEE,
        `${speedup.toFixed(2)}x (${Math.round(rate(crawlkit))} vs ${Math.round(rate(crawlee))} pages/min; ${baseline})`,
      ),
      goal(
        'crawl-http.vs-crawlee-2x',
        "crawl-http >= 2x Crawlee's pages/min with markdown on (issue 21)",
        speedup,
        2,
        `${speedup.toFixed(2)}x (${Math.round(rate(crawlkit))} vs ${Math.round(rate(crawlee))} pages/min; ${baseline})`,
      ),
      goal(
        'crawl-http.rss',
        'crawl-http lower peak RSS than Crawlee',
        crawlee.peakRssMiB - crawlkit.peakRssMiB,
        Number.MIN_VALUE,
        `${crawlkit.peakRssMiB} vs ${crawlee.peakRssMiB} MiB (${(crawlkit.peakRssMiB / crawlee.peakRssMiB).toFixed(2)}x; ${baseline})`,
      ),
      goal(
        'crawl-http.flat-memory',
        `crawl-http retained heap at ${crawlkit.rssAt.at(-1)?.pages ?? PAGES} pages <= ${GOAL_HEAP_GROWTH}x at ${SAMPLE_EVERY}`,
        // Over a few hundred pages crawlkit's bounded caches are still filling (the heap grows to ~1,000 pages, then
        // stays flat): the quick run shows the figure without judging it.
        quick ? Number.NaN : growth,
        GOAL_HEAP_GROWTH,
        `${growth.toFixed(2)}x (${first} -> ${last} MiB)${quick ? '; not judged on a quick run' : ''}`,
        { atMost: true },
      ),
      goal(
        'crawl-http.complete',
        `crawl-http all ${PAGES} pages crawled`,
        crawlkit.pages,
        PAGES,
        `${crawlkit.pages} of ${PAGES}`,
      ),
    ],
    data: { pages: PAGES, concurrency: CONCURRENCY, linksPerPage: LINKS_PER_PAGE, results, failures },
    notes: [
      'Each crawler runs in its own process against the same site process; RSS is that process only.',
      'crawlkit extracts the main content before markdown; Crawlee converts the whole <body> with turndown.',
      "'vs crawlkit' = the row's pages/min over crawlkit's; 'RSS vs crawlkit' = its peak RSS over crawlkit's.",
      'RSS@N: process RSS after N pages; heap@N: V8 heap after a forced full GC at that point (what is retained).',
      'RSS above the retained heap is V8 letting its heap grow under allocation pressure, not data kept.',
    ],
  });
}

await main();
