/**
 * Batch benchmark: `pnpm bench:batch` (= `pnpm build && node bench/batch.ts [--quick] [--urls N]`).
 *
 * A batch of 10,000 URLs against a local page server (12 KB article pages, markdown), each runner in its own child
 * process so that its peak RSS (VmHWM) is its own:
 * - crawlkit: `batchScrape()` on the on-disk SQLite store; the start time is how long `batchScrape()` takes to
 *   answer for 10,000 URLs (the first call of the engine, store opening included), then a second, warm start; the
 *   run is waited for without reading results, and RSS is sampled along it.
 * - crawlkit + webhook: the same with a webhook receiving every event (started, 10,000 pages, completed).
 * - baseline: the same URLs through a plain concurrency-limited undici loop with the same extractor, results pushed
 *   to an array (what a script without a store does).
 * `--quick`: 500 URLs (a smoke check). Prints a table ('vs crawlkit' = pages/s over crawlkit's) and writes
 * bench/results/batch.json.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { peakRssMB } from './lib/peak-rss.ts';
import { finish, goal, isQuick, withRatios, type Row } from './lib/report.ts';

const CONCURRENCY = 16;
/** How long the webhook run waits for another event once the batch is done and events stop coming. */
const WEBHOOK_IDLE_MS = 15_000;

interface ChildResult {
  runner: string;
  pages: number;
  failed: number;
  totalMs: number;
  startMs: number | null;
  /** CPU time (user + system) the cold start took, in milliseconds: the load-independent part of `startMs`. */
  startCpuMs: number | null;
  warmStartMs: number | null;
  peakRssMB: number;
  /** RSS at 10 %, 20 %, ... 100 % of the pages, in MB. */
  rssAlongMB: number[];
  /** JS heap in use right after a full GC at the same points, in MB: what the runner actually holds on to. */
  heapAlongMB: number[];
  webhookEvents?: number;
  /** From the job's completion to the last webhook event received, in milliseconds. */
  webhookLagMs?: number;
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/* ------------------------------------------------------------------------------------------------ pages -- */

function articlePage(n: string): string {
  const paragraph = (i: number) =>
    `<p>Paragraph ${i} of article ${n}. Batch scraping reads a long list of addresses with shared options and keeps ` +
    `every result for later. This sentence is here so that the page reads like an article with real prose, with ` +
    `<a href="/p/${i}">a link</a> and <strong>some emphasis</strong> in it.</p>`;
  const nav = Array.from({ length: 20 }, (_, i) => `<li><a href="/section/${i}">Section ${i}</a></li>`).join('');
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Article ${n}</title>` +
    `<meta name="description" content="Article number ${n} of the batch benchmark"></head><body>` +
    `<header><nav><ul>${nav}</ul></nav></header><main><article><h1>Article ${n}</h1>` +
    Array.from({ length: 24 }, (_, i) => paragraph(i)).join('') +
    `</article></main><footer><p>Footer of the benchmark site. All rights reserved.</p>${nav}</footer></body></html>`
  );
}

async function listen(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/* ------------------------------------------------------------------------------------------------ child -- */

async function runChild(runner: string, count: number, base: string, hook: string | undefined): Promise<ChildResult> {
  const urls = Array.from({ length: count }, (_, i) => `${base}/p/${i}`);
  const rssAlong: number[] = [];
  const heapAlong: number[] = [];
  const marks = Array.from({ length: 10 }, (_, i) => Math.ceil(((i + 1) * count) / 10));
  const gc = (globalThis as { gc?: () => void }).gc;
  const mark = (done: number) => {
    while (rssAlong.length < marks.length && done >= marks[rssAlong.length]!) {
      rssAlong.push(mb(process.memoryUsage.rss()));
      gc?.();
      heapAlong.push(mb(process.memoryUsage().heapUsed));
    }
  };

  if (runner === 'baseline') {
    const { request, Agent } = await import('undici');
    const { extractPage } = await import('@crawlkit/extractor');
    const dispatcher = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 60_000 });
    const results: { url: string; markdown: string; title: unknown }[] = [];
    let next = 0;
    let failed = 0;
    const t0 = performance.now();
    const worker = async () => {
      while (next < urls.length) {
        const url = urls[next++]!;
        try {
          const response = await request(url, { dispatcher });
          const html = await response.body.text();
          const page = extractPage(html, { url, formats: { markdown: true, metadata: true } });
          results.push({ url, markdown: page.markdown ?? '', title: page.metadata?.title });
        } catch {
          failed++;
        }
        mark(results.length + failed);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const totalMs = performance.now() - t0;
    await dispatcher.close();
    return {
      runner,
      pages: results.length,
      failed,
      totalMs,
      startMs: null,
      startCpuMs: null,
      warmStartMs: null,
      peakRssMB: peakRssMB(),
      rssAlongMB: rssAlong,
      heapAlongMB: heapAlong,
    };
  }

  const { Crawlkit } = await import('crawlkit');
  const dir = mkdtempSync(join(tmpdir(), 'ck-bench-batch-'));
  const ck = new Crawlkit({ storeDir: dir, engine: 'http', concurrency: CONCURRENCY });
  // The receiver runs in this process, so that the run can wait for the last event (it costs little memory).
  let hookEvents = 0;
  let lastEventAt = 0;
  const receiver = hook
    ? await listen(
        createServer((req, res) => {
          req.resume();
          req.on('end', () => {
            hookEvents++;
            lastEventAt = performance.now();
            res.writeHead(200).end();
          });
        }),
      )
    : undefined;
  try {
    let done = 0;
    ck.on('page', () => mark(++done));
    ck.on('error', () => mark(++done));
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const webhook = receiver ? { webhook: `${receiver.url}/hook` } : {};
    const started = await ck.batchScrape({ urls, formats: ['markdown'], ...webhook });
    const startMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const startCpuMs = (cpu.user + cpu.system) / 1000;
    if (!started.success) throw new Error(started.error);
    const finished = new Promise<void>((resolve) =>
      ck.on('job:completed', (e) => {
        if (e.id === started.id) resolve();
      }),
    );
    await finished;
    const totalMs = performance.now() - t0;
    const lag: { webhookEvents?: number; webhookLagMs?: number } = {};
    if (receiver) {
      // Every event (started, one per page, completed), or until none came for WEBHOOK_IDLE_MS: a delivery that
      // stalls is reported (fewer events) instead of holding the run for minutes.
      const end = performance.now() + 300_000;
      const idle = () => performance.now() - Math.max(lastEventAt, t0 + totalMs) > WEBHOOK_IDLE_MS;
      while (hookEvents < count + 2 && performance.now() < end && !idle()) await new Promise((r) => setTimeout(r, 20));
      lag.webhookEvents = hookEvents;
      lag.webhookLagMs = Math.max(0, lastEventAt - (t0 + totalMs));
    }
    const status = await ck.getBatchScrapeStatus(started.id, { limit: 1 });
    if (!status.success) throw new Error(status.error);
    const errors = await ck.getBatchScrapeErrors(started.id);
    const failed = 'errors' in errors ? errors.errors.length : -1;

    // A second start on the warm engine, cancelled at once.
    const t1 = performance.now();
    const warm = await ck.batchScrape({ urls: urls.map((u) => `${u}?warm`), formats: ['markdown'] });
    const warmStartMs = performance.now() - t1;
    if (warm.success) await ck.cancelBatchScrape(warm.id);
    return {
      runner,
      pages: status.completed - failed,
      failed,
      totalMs,
      startMs,
      startCpuMs,
      warmStartMs,
      peakRssMB: peakRssMB(),
      rssAlongMB: rssAlong,
      heapAlongMB: heapAlong,
      ...lag,
    };
  } finally {
    await ck.close();
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  const [, , , runner, count, base, hook] = process.argv;
  const result = await runChild(runner!, Number(count), base!, hook || undefined);
  process.send!(result, () => process.exit(0));
} else {
  await main();
}

/* ----------------------------------------------------------------------------------------------- parent -- */

function child(runner: string, count: number, base: string, hook = ''): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const proc = fork(fileURLToPath(import.meta.url), ['--child', runner, String(count), base, hook], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: [...process.execArgv, '--expose-gc'],
    });
    let result: ChildResult | undefined;
    proc.on('message', (m) => (result = m as ChildResult));
    proc.on('error', reject);
    proc.on('exit', (code) => (result ? resolve(result) : reject(new Error(`${runner} exited with ${code}`))));
  });
}

async function main(): Promise<void> {
  const quick = isQuick();
  const countArg = process.argv.indexOf('--urls');
  const count = countArg > 0 ? Number(process.argv[countArg + 1]) : quick ? 500 : 10_000;

  const bodies = new Map<string, Buffer>();
  const pages = await listen(
    createServer((req, res) => {
      const n = (req.url ?? '/').split('?')[0]!.split('/').pop() ?? '0';
      let body = bodies.get(n);
      if (!body) {
        body = Buffer.from(articlePage(n));
        if (bodies.size < 64) bodies.set(n, body);
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length }).end(body);
    }),
  );
  const results: ChildResult[] = [];
  try {
    for (const runner of ['crawlkit', 'baseline', 'crawlkit+webhook']) {
      console.log(`running ${runner} over ${count} URLs ...`);
      const webhook = runner === 'crawlkit+webhook' ? 'local' : '';
      const result = await child(runner.split('+')[0]!, count, pages.url, webhook);
      result.runner = runner;
      results.push(result);
    }
  } finally {
    await pages.close();
  }

  const rows: Row[] = results.map((r) => ({
    runner: r.runner,
    urls: count,
    pages: r.pages,
    failed: r.failed,
    'start ms': r.startMs === null ? null : Math.round(r.startMs * 10) / 10,
    'start CPU ms': r.startCpuMs === null ? null : Math.round(r.startCpuMs * 10) / 10,
    'warm start ms': r.warmStartMs === null ? null : Math.round(r.warmStartMs * 10) / 10,
    'total s': Math.round(r.totalMs / 100) / 10,
    'pages/s': Math.round((r.pages / r.totalMs) * 1000),
    'peak RSS MB': r.peakRssMB,
    'RSS at 10%..100% MB': r.rssAlongMB.join(' '),
    'heap after GC at 10%..100% MB': r.heapAlongMB.join(' '),
    'webhook events': r.webhookEvents ?? null,
    'webhook lag s': r.webhookLagMs === undefined ? null : Math.round(r.webhookLagMs / 100) / 10,
  }));

  const ck = results.find((r) => r.runner === 'crawlkit')!;
  const base = results.find((r) => r.runner === 'baseline')!;
  const growth = (r: ChildResult) => (r.heapAlongMB.at(-1) ?? 0) - (r.heapAlongMB[0] ?? 0);
  const rssGrowth = (r: ChildResult) => (r.rssAlongMB.at(-1) ?? 0) - (r.rssAlongMB[0] ?? 0);
  finish({
    name: 'batch',
    title: `batchScrape() of ${count} URLs (12 KB pages, markdown) beside an undici loop into an array`,
    quick,
    rows: withRatios(rows, 'pages/s', 'crawlkit', 'runner'),
    goals: [
      goal(
        'batch.start-10k',
        `batchScrape() of ${count} URLs answers in well under a second`,
        ck.startMs ?? Number.NaN,
        500,
        `${Math.round(ck.startMs ?? 0)} ms cold (${Math.round(ck.startCpuMs ?? 0)} ms of CPU), ` +
          `${Math.round(ck.warmStartMs ?? 0)} ms warm`,
        { atMost: true },
      ),
      goal(
        'batch.bounded-rss',
        'memory stays bounded along the batch (live heap growth from 10% to 100% of the pages under a fifth of the baseline)',
        growth(ck),
        growth(base) / 5,
        `live heap crawlkit +${growth(ck)} MB, baseline +${growth(base)} MB; RSS crawlkit +${rssGrowth(ck)} MB ` +
          `(peak ${ck.peakRssMB} MB), baseline +${rssGrowth(base)} MB (peak ${base.peakRssMB} MB)`,
        { atMost: true },
      ),
    ],
    data: { results, concurrency: CONCURRENCY },
  });
}
