/**
 * A monitor check of thousands of pages (issue: checks that scale): its close (the pages written to the store) and a
 * page of its detail (`GET /v2/monitor/:id/checks/:checkId?skip=…&limit=100`), for two builds side by side, in
 * alternating processes of their own (`lib/monitor-checks-child.ts`), each on a fresh on-disk store. Rows are the
 * medians of the rounds: wall and CPU ms, the largest record written at the close, the bytes of records a detail page
 * reads, and the heap the process holds after the call (before a collection) more than before it.
 *
 *   pnpm build && node bench/monitor-checks.ts [--pages 5000] [--rounds 3]
 *   CK_BENCH_BASE=<baseline worktree>/packages/crawlkit/dist/index.js: the build compared (else this one alone).
 *   CK_BENCH_CRAWLKIT=<build>/packages/crawlkit/dist/index.js: the build measured (else this worktree's).
 */
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { alternate, median, numberOption } from './lib/ab-builds.ts';

const pages = numberOption('--pages', 5_000);
const rounds = numberOption('--rounds', 3);
const child = join(dirname(fileURLToPath(import.meta.url)), 'lib', 'monitor-checks-child.ts');

type Figures = { ms: number; cpuMs: number; written: number; largest: number; read: number; heapDeltaMb: number };
type Sample = Record<'close' | 'detailLast' | 'detailFirst' | 'detailChanged', Figures>;
const samples = await alternate<Sample>(child, rounds, [String(pages)], ['--expose-gc']);

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
console.log(`\nmonitor check of ${pages} pages, ${rounds} rounds (medians); load ${loadavg()[0]!.toFixed(1)}`);
console.log('build       | step                     | wall ms | CPU ms | largest written | read    | heap held MB');
for (const [name, list] of samples) {
  const rows: [string, keyof Sample][] = [
    ['close', 'close'],
    ['detail, last 100', 'detailLast'],
    ['detail, first 100', 'detailFirst'],
    ['detail, 100 changed', 'detailChanged'],
  ];
  for (const [label, key] of rows) {
    const of = (field: keyof Figures) => median(list.map((s) => s[key][field]));
    console.log(
      `${name.padEnd(11)} | ${label.padEnd(24)} | ${of('ms').toFixed(1).padStart(7)} | ${of('cpuMs').toFixed(1).padStart(6)} | ${kb(of('largest')).padStart(15)} | ${kb(of('read')).padStart(7)} | ${of('heapDeltaMb').toFixed(1).padStart(12)}`,
    );
  }
}
