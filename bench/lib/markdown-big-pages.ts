// bench:markdown's big-pages row (issue 21): a whole crawlkit `scrape()` with markdown (local HTTP server, fetch,
// decode, extraction in the default worker pool, markdown) beside turndown's conversion alone (string in, markdown
// out), page by page over the largest WCXB dev pages, alternating, so that both meet the same load. The pages are
// served from a child process (as scrape-http's rows fetch from another process): the scrape's thread does not also
// write the responses.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type TurndownService from 'turndown';

import { startPageServerProcess } from './page-server-process.ts';
import { median } from './report.ts';
import { threadCpuMs, threadCpuSince, threadFaults, type ThreadCpu } from './thread-cpu.ts';
import type { WcxbPage } from './wcxb.ts';
import { loadCrawlkit } from './crawlkit-build.ts';

/** What crawlkit publishes on `crawlkit:scrape:timings` (its `ScrapeTimings`), the part read here. */
interface StageTimes {
  stages: { name: string; ms: number }[];
  /** The extract stage's split (crawlkit builds since wallpath37). */
  extraction?: { waitMs: number; runMs: number; cpuMs: number; replyMs: number };
}

export interface BigPageTiming {
  id: string;
  bytes: number;
  /** Median ms of a whole `scrape()` with markdown. */
  scrapeMs: number;
  /** Median ms of turndown's conversion alone. */
  turndownMs: number;
  /** turndownMs / scrapeMs. */
  speedup: number;
  /** Median ms of the fetch stage alone (request and body read, the extraction taken out): the main thread's part. */
  readMs?: number;
  /** Median ms of the extraction (decode, render judge, extraction in a worker, the reply). */
  extractMs?: number;
  /** Medians of the extraction's split: the worker's run, its thread's CPU in it, the hand-offs (wait and reply). */
  worker?: { runMs: number; cpuMs: number; handoffMs: number };
}

export interface BigPagesResult {
  pages: BigPageTiming[];
  /** Median over the pages of each page's speed-up. */
  medianSpeedup: number;
  medianScrapeMs: number;
  medianTurndownMs: number;
  /**
   * Mean CPU ms of one timed scrape by thread kind (main thread, the pool's workers, V8's helper threads: garbage
   * collection and compilation), read from /proc around each scrape; undefined without /proc.
   */
  cpuPerScrape?: ThreadCpu;
  /**
   * Mean minor page faults of one timed scrape by thread kind (first touches of fresh memory, ~20 µs each on the lead's
   * VM: faults37), read as `cpuPerScrape` is.
   */
  faultsPerScrape?: ThreadCpu;
  /** Median over the pages of `readMs` and `extractMs`, and of what overlapping them could save at most a page. */
  stages?: { readMs: number; extractMs: number; overlapCeilingMs: number };
  /** Median over the pages of each page's `worker` split. */
  worker?: { runMs: number; cpuMs: number; handoffMs: number };
  /** `defaultConfig` only: the mean over the pages of each page's median `cache-write` stage (ms). */
  cacheWriteMs?: number;
}

/**
 * The big-page rows' warm-up set: every `every`th page (from the 5th) of `bySize` (sorted smallest first) but the
 * `big` largest, so every size of page and none of the timed ones (about 150 of the dev split at 10).
 */
export function bigPagesWarmUp<T>(bySize: readonly T[], big: number, every = 10): T[] {
  return bySize.slice(0, -big).filter((_, i) => i % every === Math.min(5, every - 1));
}

/** Each `<script>` and `<style>` element cut out: the page turndown converts in the whole-page row. */
export function withoutScriptsAndStyles(html: string): string {
  return html.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '');
}

/**
 * Times `pages` (the largest first) `runs` times each, scrape and turndown alternating, after one warm-up scrape and,
 * when `warmUp` is given, both sides' work through those other pages untimed (the scrapes two at a time, so that each
 * thread of the pool compiles its code as the turndown's thread does: equally warm, pool37e).
 * `wholePage`: the scrape with `onlyMainContent: false`, and turndown given the page without its scripts and styles
 * (cut before timing), so that both produce the whole page; otherwise the scrape's main content beside turndown's
 * conversion of the page as served. `defaultConfig` (storewrite): crawlkit's default configuration instead of the
 * row's (an on-disk store in a temporary folder, the page cache on), each scrape under a new URL, so each is a cache
 * miss and a write.
 */
export async function timeBigPages(
  pages: readonly WcxbPage[],
  turndown: TurndownService,
  runs: number,
  {
    wholePage = false,
    defaultConfig = false,
    warmUp = [],
  }: { wholePage?: boolean; defaultConfig?: boolean; warmUp?: readonly WcxbPage[] } = {},
): Promise<BigPagesResult> {
  // CK_BENCH_CRAWLKIT: another build of the package (its dist/index.js), the row run on it.
  const { Crawlkit } = await loadCrawlkit();
  const storeDir = defaultConfig ? mkdtempSync(join(tmpdir(), 'ck-bench-big-pages-')) : undefined;
  const crawlkit = new Crawlkit(storeDir ? { storeDir, engine: 'http' } : { store: 'memory', engine: 'http' });
  const server = await startPageServerProcess(new Map([...pages, ...warmUp].map((p) => [`/${p.id}.html`, p.html])));
  let fresh = 0;
  const body = (page: WcxbPage) => ({
    url: `${server.url}/${page.id}.html${storeDir ? `?run=${fresh++}` : ''}`,
    formats: ['markdown' as const],
    onlyMainContent: !wholePage,
    ...(storeDir ? {} : { maxAge: 0, storeInCache: false }),
  });
  const cacheWrites: number[] = [];
  const timings: BigPageTiming[] = [];
  const cpu: ThreadCpu = { main: 0, workers: 0, v8: 0, other: 0 };
  const faults: ThreadCpu = { main: 0, workers: 0, v8: 0, other: 0 };
  let measured = 0;
  // The stages of each timed scrape (`crawlkit:scrape:timings`): how the wall time splits between the body's read
  // and the extraction, the two steps that run one after the other.
  let stages: StageTimes['stages'] | undefined;
  let split: StageTimes['extraction'];
  const onTimings = (message: unknown) => ({ stages, extraction: split } = message as StageTimes);
  subscribe('crawlkit:scrape:timings', onTimings);
  const stageMs = (name: string) => stages?.find((s) => s.name === name)?.ms;
  try {
    // The pool's threads and the connection warm up on a page outside the timed set.
    await crawlkit.scrape(body(pages[pages.length - 1]!));
    for (let i = 0; i < warmUp.length; i += 2) {
      const pair = warmUp.slice(i, i + 2);
      await Promise.all(pair.map((page) => crawlkit.scrape(body(page))));
      for (const page of pair) {
        try {
          turndown.turndown(wholePage ? withoutScriptsAndStyles(page.html) : page.html);
        } catch {
          // turndown's GFM plugin throws on a few dev pages (tables without rows): its warm-up is the work before.
        }
      }
    }
    for (const page of pages) {
      const input = wholePage ? withoutScriptsAndStyles(page.html) : page.html;
      const scrape: number[] = [];
      const td: number[] = [];
      const read: number[] = [];
      const extract: number[] = [];
      const worker: { runMs: number; cpuMs: number; handoffMs: number }[] = [];
      const cacheWrite: number[] = [];
      for (let i = 0; i < runs; i++) {
        stages = undefined;
        split = undefined;
        const before = threadCpuMs();
        const faultsBefore = threadFaults();
        let t0 = performance.now();
        const doc = await crawlkit.scrape(body(page));
        scrape.push(performance.now() - t0);
        const [readMs, extractMs] = [stageMs('fetch'), stageMs('extract')];
        cacheWrite.push(stageMs('cache-write') ?? 0);
        if (readMs !== undefined && extractMs !== undefined) {
          read.push(readMs);
          extract.push(extractMs);
        }
        // Set by the channel's listener during the scrape (the compiler sees only the reset above).
        const got = split as StageTimes['extraction'];
        if (got) worker.push({ runMs: got.runMs, cpuMs: got.cpuMs, handoffMs: got.waitMs + got.replyMs });
        const after = threadCpuMs();
        const faultsAfter = threadFaults();
        if (before && after && faultsBefore && faultsAfter) {
          const used = threadCpuSince(before, after);
          const faulted = threadCpuSince(faultsBefore, faultsAfter);
          for (const kind of KINDS) {
            cpu[kind] += used[kind];
            faults[kind] += faulted[kind];
          }
          measured++;
        }
        if (!doc.success || !doc.data.markdown) throw new Error(`scrape of ${page.id} gave no markdown`);
        t0 = performance.now();
        turndown.turndown(input);
        td.push(performance.now() - t0);
      }
      const scrapeMs = median(scrape);
      const turndownMs = median(td);
      cacheWrites.push(median(cacheWrite));
      timings.push({
        id: page.id,
        bytes: Buffer.byteLength(page.html),
        scrapeMs,
        turndownMs,
        speedup: turndownMs / scrapeMs,
        ...(read.length ? { readMs: median(read), extractMs: median(extract) } : {}),
        ...(worker.length ? { worker: medianSplit(worker) } : {}),
      });
    }
  } finally {
    unsubscribe('crawlkit:scrape:timings', onTimings);
    await crawlkit.close();
    await server.close();
    if (storeDir) rmSync(storeDir, { recursive: true, force: true });
  }
  return {
    pages: timings,
    medianSpeedup: median(timings.map((t) => t.speedup)),
    medianScrapeMs: median(timings.map((t) => t.scrapeMs)),
    medianTurndownMs: median(timings.map((t) => t.turndownMs)),
    ...stageSplit(timings),
    ...(timings.every((t) => t.worker) ? { worker: medianSplit(timings.map((t) => t.worker!)) } : {}),
    ...(storeDir ? { cacheWriteMs: cacheWrites.reduce((a, b) => a + b, 0) / cacheWrites.length } : {}),
    ...(measured ? { cpuPerScrape: perScrape(cpu, measured), faultsPerScrape: perScrape(faults, measured) } : {}),
  };
}

const KINDS = ['main', 'workers', 'v8', 'other'] as const;

/** `total` by kind over `scrapes`. */
function perScrape(total: ThreadCpu, scrapes: number): ThreadCpu {
  return Object.fromEntries(KINDS.map((kind) => [kind, total[kind] / scrapes])) as unknown as ThreadCpu;
}

/**
 * The read/extraction split over the pages: a streamed extraction (the body parsed as it arrives) could save at most
 * the shorter of the two on each page.
 */
function stageSplit(timings: readonly BigPageTiming[]): Pick<BigPagesResult, 'stages'> {
  const split = timings.filter((t) => t.readMs !== undefined && t.extractMs !== undefined);
  if (split.length === 0) return {};
  return {
    stages: {
      readMs: median(split.map((t) => t.readMs!)),
      extractMs: median(split.map((t) => t.extractMs!)),
      overlapCeilingMs: median(split.map((t) => Math.min(t.readMs!, t.extractMs!))),
    },
  };
}

/** Each field's median over `splits`. */
function medianSplit(splits: readonly { runMs: number; cpuMs: number; handoffMs: number }[]) {
  return {
    runMs: median(splits.map((s) => s.runMs)),
    cpuMs: median(splits.map((s) => s.cpuMs)),
    handoffMs: median(splits.map((s) => s.handoffMs)),
  };
}
