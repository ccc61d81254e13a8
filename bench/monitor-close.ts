/**
 * A monitor check's close over a crawl of thousands of changed pages (each with its diff): what the close holds in
 * memory while it streams the pages to the store, and its time, for two builds side by side, in alternating processes
 * of their own (`lib/monitor-close-child.ts`), each with its own site and on-disk store. Rows are the medians of the
 * rounds: wall and CPU ms, the heap used above what it was before the close (garbage included) at its peak and after
 * it, and the live heap's peak (collected before each store read and write of the close).
 *
 *   pnpm build && node bench/monitor-close.ts [--quick] [--pages 3000] [--rounds 1]   (quick: 600 pages)
 *   CK_BENCH_BASE=<baseline worktree>/packages/crawlkit/dist/index.js: the build compared (else this one alone).
 *   CK_BENCH_CRAWLKIT=<build>/packages/crawlkit/dist/index.js: the build measured (else this worktree's).
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

import { alternate, median, numberOption } from './lib/ab-builds.ts';
import { finish, isQuick, type Row } from './lib/report.ts';

const quick = isQuick();
const pages = numberOption('--pages', quick ? 600 : 3_000);
const rounds = numberOption('--rounds', 1);
const child = fileURLToPath(new URL('./lib/monitor-close-child.ts', import.meta.url));

type Sample = {
  ms: number;
  cpuMs: number;
  heapPeakMb: number;
  heapAfterMb: number;
  liveHeapPeakMb: number;
  pages: number;
  changed: number;
};
const samples = await alternate<Sample>(child, rounds, [String(pages)], ['--expose-gc']);
const rows: Row[] = [...samples].map(([build, list]) => {
  const of = (field: keyof Sample) => median(list.map((s) => s[field]));
  return {
    build,
    pages: of('pages'),
    changed: of('changed'),
    'wall ms': Math.round(of('ms')),
    'cpu ms': Math.round(of('cpuMs')),
    'heap used peak MB': of('heapPeakMb'),
    'heap used after MB': of('heapAfterMb'),
    'live heap peak MB': of('liveHeapPeakMb'),
  };
});
finish({
  name: 'monitor-close',
  title: `a monitor check's close over ${pages} changed pages (${rounds} rounds, load ${loadavg()[0]!.toFixed(1)})`,
  quick,
  rows,
  goals: [],
  data: { pages, rounds, samples: Object.fromEntries(samples) },
});
