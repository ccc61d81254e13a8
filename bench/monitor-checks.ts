/**
 * A monitor check of thousands of pages (issue: checks that scale): its close (the pages written to the store) and a
 * page of its detail (`GET /v2/monitor/:id/checks/:checkId?skip=…&limit=100`), for two builds side by side, in
 * alternating processes of their own (`lib/monitor-checks-child.ts`), each on a fresh on-disk store. Rows are the
 * medians of the rounds: wall and CPU ms, the largest record written at the close, the bytes of records a detail page
 * reads, and the heap the process holds after the call (before a collection) more than before it.
 *
 *   pnpm build && node bench/monitor-checks.ts [--quick] [--pages 20000] [--rounds 3]   (quick: 2,000 pages, 1 round)
 *   CK_BENCH_BASE=<baseline worktree>/packages/crawlkit/dist/index.js: the build compared (else this one alone).
 *   CK_BENCH_CRAWLKIT=<build>/packages/crawlkit/dist/index.js: the build measured (else this worktree's).
 */
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { alternate, median, numberOption } from './lib/ab-builds.ts';
import { finish, isQuick, type Row } from './lib/report.ts';

const quick = isQuick();
const pages = numberOption('--pages', quick ? 2_000 : 20_000);
const rounds = numberOption('--rounds', quick ? 1 : 3);
const child = join(dirname(fileURLToPath(import.meta.url)), 'lib', 'monitor-checks-child.ts');

type Figures = { ms: number; cpuMs: number; written: number; largest: number; read: number; heapDeltaMb: number };
type Sample = Record<'close' | 'detailLast' | 'detailFirst' | 'detailChanged', Figures>;
const samples = await alternate<Sample>(child, rounds, [String(pages)], ['--expose-gc']);

const kb = (bytes: number) => Math.round(bytes / 1024);
const steps: [string, keyof Sample][] = [
  ['close', 'close'],
  ['detail, last 100', 'detailLast'],
  ['detail, first 100', 'detailFirst'],
  ['detail, 100 changed', 'detailChanged'],
];
const rows: Row[] = [];
for (const [build, list] of samples) {
  for (const [step, key] of steps) {
    const of = (field: keyof Figures) => median(list.map((s) => s[key][field]));
    rows.push({
      build,
      step,
      'wall ms': Math.round(of('ms') * 10) / 10,
      'cpu ms': Math.round(of('cpuMs') * 10) / 10,
      'largest written KB': kb(of('largest')),
      'read KB': kb(of('read')),
      'heap held MB': Math.round(of('heapDeltaMb') * 10) / 10,
    });
  }
}
finish({
  name: 'monitor-checks',
  title: `a monitor check of ${pages} pages: its close and pages of its detail (${rounds} rounds, load ${loadavg()[0]!.toFixed(1)})`,
  quick,
  rows,
  goals: [],
  data: { pages, rounds, samples: Object.fromEntries(samples) },
});
