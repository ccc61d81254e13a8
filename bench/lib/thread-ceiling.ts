// What two threads can give on this machine for crawlkit's extraction, with nothing around it: `extractPage` over
// pages already in memory, on the main thread, then on two bare worker threads at once (each doing the same pages),
// no messages per page, no fetch, no server. The pool's ratio to one thread (scrape-http's
// `scrape-http.vs-one-thread`) cannot pass this one; on 2 cores it is capped by what the two threads share (memory
// bus, caches, V8's GC helper threads), not by crawlkit's pool.
//
//   node bench/lib/thread-ceiling.ts <wcxb-dev dir> <every> [rounds] [warm-up offset]   (forked by scrape-http)
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

import { extractPage, type ExtractPageOptions } from '@crawlkit/extractor';

import { median } from './report.ts';
import { loadWcxbPages } from './wcxb.ts';

/** The worker pool's own limits (`packages/crawlkit/src/extraction/pool.ts`, `workers.maxMemoryMb`'s default). */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 1024, maxYoungGenerationSizeMb: 32 };

export interface ThreadCeiling {
  pages: number;
  rounds: number;
  /** Pages a second on the main thread, per round. */
  oneThread: number[];
  /** Pages a second of the two worker threads together, per round. */
  twoThreads: number[];
  /** Median of the rounds' two-thread over one-thread ratios. */
  ratio: number;
}

/** What `scrape-http` asks for: formats markdown and links, main content (metadata is always read). */
function options(url: string): ExtractPageOptions {
  return {
    url,
    onlyMainContent: true,
    removeBase64Images: true,
    formats: { markdown: true, links: true, metadata: true },
  };
}

/** Decodes and extracts every page once, as a worker's task does; answers the pages done. */
function extractAll(pages: readonly { url: string; bytes: Buffer }[]): number {
  for (const page of pages) extractPage(page.bytes.toString('utf8'), options(page.url));
  return pages.length;
}

interface Job {
  dir: string;
  every: number;
  /** The warm-up's pages, `{ every, offset }` (as scrape-http's rows warm up); unset = the timed pages. */
  warmOffset?: number;
}

function load({ dir, every }: Job, offset = 0): { url: string; bytes: Buffer }[] {
  return loadWcxbPages(dir, { every, offset }).map((p) => ({ url: p.url, bytes: Buffer.from(p.html) }));
}

const loadWarm = (job: Job) => (job.warmOffset === undefined ? load(job) : load(job, job.warmOffset));

async function twoThreads(job: Job): Promise<number> {
  const workers = [0, 1].map(
    () => new Worker(new URL(import.meta.url), { workerData: job, resourceLimits: RESOURCE_LIMITS }),
  );
  const next = (w: Worker) =>
    new Promise<number>((resolve, reject) => {
      w.once('message', resolve);
      w.once('error', reject);
    });
  // Each worker loads the pages and warms up (one untimed pass over the warm-up's pages) before the clock starts.
  await Promise.all(workers.map(next));
  const started = performance.now();
  const done = await Promise.all(workers.map((w) => (w.postMessage('go'), next(w))));
  const ms = performance.now() - started;
  await Promise.all(workers.map((w) => w.terminate()));
  return (done.reduce((a, n) => a + n, 0) / ms) * 1000;
}

export async function measureThreadCeiling(job: Job, rounds: number): Promise<ThreadCeiling> {
  const pages = load(job);
  extractAll(loadWarm(job));
  const one: number[] = [];
  const two: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const started = performance.now();
    const n = extractAll(pages);
    one.push((n / (performance.now() - started)) * 1000);
    two.push(await twoThreads(job));
  }
  return {
    pages: pages.length,
    rounds,
    oneThread: one,
    twoThreads: two,
    ratio: median(two.map((t, i) => t / one[i]!)),
  };
}

if (!isMainThread) {
  const pages = load(workerData as Job);
  extractAll(loadWarm(workerData as Job));
  parentPort!.postMessage(0);
  parentPort!.once('message', () => parentPort!.postMessage(extractAll(pages)));
} else if (process.argv[1] && import.meta.filename === process.argv[1] && process.send) {
  const [dir, every, rounds, warmOffset] = process.argv.slice(2);
  const job = { dir: dir!, every: Number(every), ...(warmOffset ? { warmOffset: Number(warmOffset) } : {}) };
  const result = await measureThreadCeiling(job, Number(rounds ?? 3));
  process.send(result, () => process.exit(0));
}
