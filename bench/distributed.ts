/**
 * Distributed crawl throughput: `pnpm bench:distributed` (600 pages; `--quick` for 100 pages and 1 and 2 workers;
 * `BENCH_PAGES=3000` for the size the README quotes).
 *
 * The generated site (bench/lib/generated-site.ts) is served by its own process and a throwaway `redis-server` is
 * started on a free loopback port (or `CRAWLKIT_BENCH_REDIS_URL` is used). Then, on the same site and in this run:
 *   - baseline: one process crawling in-process on the embedded SQLite store (`new Crawlkit()`), as without Redis;
 *   - 1, 2 and 4 worker processes (`ck.startWorker()` on `redis({ url })`, each with the same engine concurrency),
 *     the crawl submitted by this process, which only polls its status;
 *   - two crawls of the same size submitted together on 2 workers: how the workers are shared (the second crawl's
 *     pages when the first ends: 1 is an even share, 0 a starved second job).
 * Each Redis row also reports Redis's peak `used_memory` over the run (read with `redis-cli`, if installed).
 * Workers are started and ready before the clock starts; each configuration gets a fresh key prefix. Reports
 * pages/minute of each row. On a 2-core machine the workers, the site, Redis and this process share two cores:
 * scaling past 2 workers is not expected here. Writes bench/results/distributed.json.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startRedisServer } from '../test/setup/redis.ts';
import { finish, isQuick, type Row } from './lib/report.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const quick = isQuick();
const PAGES = Number(process.env['BENCH_PAGES'] ?? (quick ? 100 : 600));
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 16);
const WORKER_COUNTS = (process.env['BENCH_WORKERS'] ?? (quick ? '1,2' : '1,2,4')).split(',').map(Number);

interface Measured {
  runner: string;
  workers: number;
  pages: number;
  seconds: number;
  startupSeconds: number;
  /** Redis's peak `used_memory` during the run, in MiB (undefined without `redis-cli`). */
  redisPeakMiB?: number;
  /** Two crawls at once: the other crawl's completed pages over the first's, when the first ended. */
  share?: number;
}

/** Redis's `used_memory` in bytes, or undefined when `redis-cli` cannot tell. */
function redisUsedMemory(redisUrl: string): number | undefined {
  try {
    const info = execFileSync('redis-cli', ['-u', redisUrl, 'info', 'memory'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const match = /used_memory:(\d+)/.exec(info.toString());
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

function lines(proc: ChildProcess, onLine: (line: string) => void): void {
  let buffer = '';
  proc.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      onLine(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
    }
  });
}

async function startSite(): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(
    process.execPath,
    [join(here, 'lib', 'generated-site.ts'), '--pages', String(PAGES + 500), '--links', '10'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve) =>
    lines(proc, (line) => resolve((JSON.parse(line) as { url: string }).url)),
  );
  return { url, proc };
}

function startWorker(redisUrl: string, prefix: string): { proc: ChildProcess; ready: Promise<void> } {
  const proc = spawn(
    process.execPath,
    [join(here, 'lib', 'distributed-worker.ts'), redisUrl, prefix, String(CONCURRENCY)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const ready = new Promise<void>((resolve, reject) => {
    lines(proc, (line) => line === 'ready' && resolve());
    proc.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
  return { proc, ready };
}

async function stopWorker(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGTERM');
  await exited;
}

/** Baseline: the whole crawl in this process on the embedded store. */
async function runEmbedded(siteUrl: string): Promise<Measured> {
  const { Crawlkit } = await import('crawlkit');
  const dir = mkdtempSync(join(tmpdir(), 'ck-bench-dist-'));
  const ck = new Crawlkit({ storeDir: dir, engine: 'http', concurrency: CONCURRENCY });
  const started = performance.now();
  const response = await ck.crawl({ url: `${siteUrl}/`, limit: PAGES, scrapeOptions: { formats: ['markdown'] } });
  if (!response.success) throw new Error(response.error);
  let pages = 0;
  for await (const _ of ck.watch(response.id)) pages++;
  const seconds = (performance.now() - started) / 1000;
  await ck.close();
  rmSync(dir, { recursive: true, force: true });
  return { runner: 'embedded store, in-process (no Redis)', workers: 1, pages, seconds, startupSeconds: 0 };
}

async function runDistributed(siteUrl: string, redisUrl: string, workers: number, crawls = 1): Promise<Measured> {
  const { Crawlkit } = await import('crawlkit');
  const { redis } = await import('@crawlkit/redis');
  const prefix = `ck-bench-${randomUUID()}`;
  const bootStarted = performance.now();
  const procs = Array.from({ length: workers }, () => startWorker(redisUrl, prefix));
  await Promise.all(procs.map((p) => p.ready));
  const startupSeconds = (performance.now() - bootStarted) / 1000;

  const client = new Crawlkit({ backend: redis({ url: redisUrl, prefix }), engine: 'http' });
  try {
    const memoryBefore = redisUsedMemory(redisUrl);
    let memoryPeak = memoryBefore;
    const started = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < crawls; i++) {
      const response = await client.crawl({
        url: `${siteUrl}/`,
        limit: PAGES,
        scrapeOptions: { formats: ['markdown'] },
      });
      if (!response.success) throw new Error(response.error);
      ids.push(response.id);
    }
    const completed = ids.map(() => 0);
    let share: number | undefined;
    for (;;) {
      let running = 0;
      for (const [i, id] of ids.entries()) {
        const status = await client.getCrawlStatus(id, { limit: 1 });
        if (!status.success) throw new Error(status.error);
        completed[i] = status.completed;
        if (status.status === 'scraping') running++;
      }
      const used = redisUsedMemory(redisUrl);
      if (used !== undefined) memoryPeak = Math.max(memoryPeak ?? 0, used);
      if (crawls > 1 && share === undefined && running < crawls) {
        share = Math.min(...completed) / Math.max(...completed, 1);
      }
      if (running === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (performance.now() - started) / 1000;
    const shape = crawls > 1 ? `${crawls} crawls at once, ` : '';
    return {
      runner: `Redis + BullMQ, ${shape}${workers} worker process${workers > 1 ? 'es' : ''}`,
      workers,
      pages: completed.reduce((a, b) => a + b, 0),
      seconds,
      startupSeconds,
      ...(memoryPeak !== undefined && memoryBefore !== undefined
        ? { redisPeakMiB: (memoryPeak - memoryBefore) / 2 ** 20 }
        : {}),
      ...(share !== undefined ? { share } : {}),
    };
  } finally {
    await client.close();
    await Promise.all(procs.map((p) => stopWorker(p.proc)));
  }
}

const site = await startSite();
const external = process.env['CRAWLKIT_BENCH_REDIS_URL'];
const server = external ? undefined : await startRedisServer();
const redisUrl = external ?? server?.url;
if (!redisUrl)
  throw new Error('redis-server could not be started (install redis-server or set CRAWLKIT_BENCH_REDIS_URL)');

const results: Measured[] = [];
try {
  const log = (m: Measured) => process.stderr.write(`${m.runner}: ${m.pages} pages in ${m.seconds.toFixed(1)} s\n`);
  results.push(await runEmbedded(site.url));
  log(results.at(-1)!);
  for (const workers of WORKER_COUNTS) {
    results.push(await runDistributed(site.url, redisUrl, workers));
    log(results.at(-1)!);
  }
  results.push(await runDistributed(site.url, redisUrl, Math.min(2, Math.max(...WORKER_COUNTS)), 2));
  log(results.at(-1)!);
} finally {
  site.proc.kill('SIGTERM');
  await server?.stop();
}

const baseline = results[0]!;
const perMinute = (m: Measured) => Math.round((m.pages / m.seconds) * 60);
const one = results.find((m) => m.workers === 1 && m !== baseline);
const rows: Row[] = results.map((m) => ({
  runner: m.runner,
  pages: m.pages,
  seconds: Math.round(m.seconds * 10) / 10,
  'pages/min': perMinute(m),
  'vs embedded': Math.round((perMinute(m) / perMinute(baseline)) * 100) / 100,
  'vs 1 worker': one ? Math.round((perMinute(m) / perMinute(one)) * 100) / 100 : null,
  'worker startup s': Math.round(m.startupSeconds * 10) / 10,
  'Redis MiB': m.redisPeakMiB === undefined ? null : Math.round(m.redisPeakMiB),
  'share at 1st end': m.share === undefined ? null : Math.round(m.share * 100) / 100,
}));

finish({
  name: 'distributed',
  title: `Distributed crawl: ${PAGES} pages, engine concurrency ${CONCURRENCY} per process`,
  quick,
  rows,
  goals: [],
  data: { pages: PAGES, concurrency: CONCURRENCY, workerCounts: WORKER_COUNTS, results },
  notes: [
    'Workers, the site server, Redis and the submitting process share the machine: on 2 cores, more than 2 workers',
    'cannot add CPU; the rows show the cost of the queue (Redis round trips per page) and how far it scales here.',
    'Redis MiB: peak used_memory over the run, above its start (each run has a fresh prefix; earlier runs stay).',
    "share at 1st end: two crawls at once, the other crawl's pages over the first's when the first ended (1: even).",
  ],
});
