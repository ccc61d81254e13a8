// Child process of bench/embedded-memory.ts: one long-lived embedded engine given `scrape()` after `scrape()` of the
// fixture site's pages (one at a time, as an app calling it in a loop would), its memory sampled every `--every`
// scrapes: the process (/proc, `process.memoryUsage()`), this thread's V8 heap and each extraction worker's, each
// after a full collection (`--expose-gc` here; a worker's heap snapshot collects first).
//
//   node --expose-gc bench/lib/embedded-memory-child.ts <base URL> <paths,...> <scrapes> <every> <options JSON>
// options: { maxAge?: number }. Prints one JSON line a sample. CK_BENCH_HOLD=1: waits for SIGUSR2 after the last
// scrape, the engine still open, so that a debugger can read the allocator (`malloc_stats()`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';

import { loadCrawlkit } from './crawlkit-build.ts';
import { memoryBreakdown, mib, type MappingKind } from './memory-breakdown.ts';
import { workerStatsAfterCollection } from './worker-collect.ts';

/** One sample (MiB). Workers: one entry a thread. */
export interface EmbeddedSample {
  scrapes: number;
  failed: number;
  seconds: number;
  rss: number;
  heapUsed: number;
  mainHeap: number;
  mainSpaces: Record<string, number>;
  external: number;
  arrayBuffers: number;
  workersUsed: number[];
  workersHeap: number[];
  workersMalloced: number[];
  workersExternal: number[];
  maps: Record<MappingKind, number>;
  arenas: number;
  threads: number;
}

const [base, pathList, count, every, json] = process.argv.slice(2) as [string, string, string, string, string];
const options = JSON.parse(json) as { maxAge?: number };
const storeDir = mkdtempSync(join(tmpdir(), 'ck-bench-embedded-'));
const probe = memoryBreakdown(storeDir);
const collected = workerStatsAfterCollection();
const { Crawlkit } = await loadCrawlkit();
const ck = new Crawlkit({ storeDir, engine: 'http' });
const paths = pathList.split(',');
const total = Number(count);
const step = Number(every);
const gc = (globalThis as { gc?: () => void }).gc;
let failed = 0;
const t0 = performance.now();
// The pool's threads do not hold the process, nor does a wait on their heap: this does, until the end.
const alive = setInterval(() => undefined, 60_000);
try {
  for (let i = 1; i <= total; i++) {
    const result = await ck.scrape({
      url: `${base}${paths[(i - 1) % paths.length]}`,
      formats: ['markdown'],
      ...(options.maxAge === undefined ? {} : { maxAge: options.maxAge }),
    });
    if (!result.success) failed++;
    if (i % step === 0 || i === 1) {
      const workers = await collected();
      gc?.();
      const sample = await probe.sample();
      const main = getHeapStatistics();
      const usage = process.memoryUsage();
      const line: EmbeddedSample = {
        scrapes: i,
        failed,
        seconds: Math.round((performance.now() - t0) / 100) / 10,
        rss: sample.rss,
        heapUsed: mib(usage.heapUsed),
        mainHeap: mib(main.total_physical_size),
        mainSpaces: Object.fromEntries(
          getHeapSpaceStatistics().map((s) => [s.space_name.replace(/_space$/, ''), mib(s.physical_space_size)]),
        ),
        external: mib(usage.external),
        arrayBuffers: mib(usage.arrayBuffers),
        workersUsed: workers.map((w) => mib(w.used_heap_size)),
        workersHeap: workers.map((w) => mib(w.total_physical_size)),
        workersMalloced: workers.map((w) => mib(w.malloced_memory)),
        workersExternal: workers.map((w) => mib(w.external_memory)),
        maps: sample.maps,
        arenas: sample.arenas,
        threads: sample.threads,
      };
      process.stdout.write(`${JSON.stringify(line)}\n`);
    }
  }
  if (process.env['CK_BENCH_HOLD']) {
    // Held for a debugger (gdb -p PID -batch -ex 'call (void) malloc_stats()'): SIGUSR2 goes on.
    process.stderr.write(`embedded-memory child ${process.pid} holds: kill -USR2 ${process.pid} to go on\n`);
    await new Promise((resolve) => process.once('SIGUSR2', resolve));
  }
} finally {
  clearInterval(alive);
  await ck.close();
  rmSync(storeDir, { recursive: true, force: true });
}
