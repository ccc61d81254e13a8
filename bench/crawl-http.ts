/**
 * Crawl throughput and memory with the HTTP engine: `pnpm bench:crawl` (`--quick` for 1,000 pages).
 *
 * A deterministic generated site (bench/lib/generated-site.ts: 5,000 pages of ~10–30 KB, nav + article, a tree
 * that BFS covers, seeded cross links) is served by its own process. Each crawler then runs in its own process, one
 * after the other, at the same concurrency, on the same site:
 *   - crawlkit: `ck.crawl({ url, limit })` with markdown (main content), its on-disk SQLite store, results read as
 *     they are stored through `ck.watch()`;
 *   - Crawlee: `CheerioCrawler` + turndown over the page body, `enqueueLinks` on the same host, `pushData` into its
 *     dataset, once with its default on-disk storage and once in memory (`persistStorage: false`); min = max
 *     concurrency so every runner keeps the same number of requests in flight.
 * Each runner reports pages/minute, peak RSS (sampled every 50 ms) and RSS at every 1,000 pages, to show whether
 * memory stays flat as the crawl grows. Writes bench/results/crawl-http.json.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { finish, goal, isQuick, type Row } from './lib/report.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const quick = isQuick();
const PAGES = Number(process.env['BENCH_PAGES'] ?? (quick ? 1000 : 5000));
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 16);
const LINKS_PER_PAGE = 10;
const SAMPLE_EVERY = 1000;
/** `BENCH_RUNNERS=crawlkit` runs a subset (the table then has no baseline). */
const RUNNERS = (process.env['BENCH_RUNNERS'] ?? 'crawlkit,crawlee-disk,crawlee-memory').split(',');

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

/** Samples RSS every 50 ms and at every SAMPLE_EVERY pages. */
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
      peak = Math.max(peak, process.memoryUsage.rss());
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
    const proc = spawn(process.execPath, ['--expose-gc', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
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
  try {
    for (const runner of RUNNERS) {
      const result = await child<RunnerResult>([fileURLToPath(import.meta.url), '--runner', runner, '--url', url]);
      process.stdout.write(
        `${result.runner}: ${result.pages} pages in ${result.seconds.toFixed(1)} s, peak RSS ${result.peakRssMiB} MiB\n`,
      );
      results.push(result);
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
    for (const sample of r.rssAt) row[`RSS@${sample.pages / 1000}k`] = sample.rssMiB;
    for (const sample of r.rssAt) row[`heap@${sample.pages / 1000}k`] = sample.heapMiB;
    return row;
  });
  const crawlkit = results.find((r) => r.runner === 'crawlkit')!;
  // The faster Crawlee configuration is the baseline.
  const crawlee = results
    .filter((r) => r.runner.startsWith('crawlee'))
    .reduce<RunnerResult | undefined>((best, r) => (best && rate(best) >= rate(r) ? best : r), undefined) ?? {
    runner: 'none',
    pages: NaN,
    seconds: NaN,
    peakRssMiB: NaN,
    rssAt: [],
    markdownChars: NaN,
  };
  const first = crawlkit.rssAt[0]?.heapMiB ?? NaN;
  const last = crawlkit.rssAt.at(-1)?.heapMiB ?? NaN;
  const growth = last / first;
  finish({
    name: 'crawl-http',
    title: `Crawl of a ${PAGES}-page generated site, HTTP engine, markdown, concurrency ${CONCURRENCY}`,
    quick,
    rows,
    goals: [
      goal(
        'crawl-http.vs-crawlee',
        "pages/min >= Crawlee CheerioCrawler + turndown's (its faster storage)",
        rate(crawlkit) / rate(crawlee),
        1,
        `${(rate(crawlkit) / rate(crawlee)).toFixed(2)}x (${Math.round(rate(crawlkit))} vs ${Math.round(rate(crawlee))} pages/min)`,
      ),
      goal(
        'crawl-http.flat-memory',
        `retained heap at ${crawlkit.rssAt.at(-1)?.pages ?? PAGES} pages <= 1.3x at ${SAMPLE_EVERY}`,
        growth,
        1.3,
        `${growth.toFixed(2)}x (${first} -> ${last} MiB)`,
        { atMost: true },
      ),
      goal('crawl-http.complete', `all ${PAGES} pages crawled`, crawlkit.pages, PAGES, `${crawlkit.pages} of ${PAGES}`),
    ],
    data: { pages: PAGES, concurrency: CONCURRENCY, linksPerPage: LINKS_PER_PAGE, results },
    notes: [
      'Each crawler runs in its own process against the same site process; RSS is that process only.',
      'crawlkit extracts the main content before markdown; Crawlee converts the whole <body> with turndown.',
      'RSS@Nk: process RSS after N pages; heap@Nk: V8 heap after a forced full GC at that point (what is retained).',
      'RSS above the retained heap is V8 letting its heap grow under allocation pressure, not data kept.',
    ],
  });
}

await main();
