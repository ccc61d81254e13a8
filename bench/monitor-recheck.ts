/**
 * A monitor's second check of an unchanged site (a crawl target of a generated changing site): the requests its
 * pages cost (full bodies, `304 Not Modified`) and its wall and CPU time, for two builds side by side in alternating
 * processes, each with its own store and site. Rows are the medians of the rounds.
 *
 *   pnpm build && node bench/monitor-recheck.ts [--pages 300] [--rounds 3]
 *   CK_BENCH_BASE=<baseline worktree>/packages/crawlkit/dist/index.js: the build compared (else this one alone).
 *   CK_BENCH_CRAWLKIT=<build>/packages/crawlkit/dist/index.js: the build measured (else this worktree's).
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

import { alternate, median, numberOption } from './lib/ab-builds.ts';

const pages = numberOption('--pages', 300);
const rounds = numberOption('--rounds', 3);
const child = fileURLToPath(new URL('./lib/monitor-recheck-child.ts', import.meta.url));

type Sample = { full: number; notModified: number; ms: number; cpuMs: number; same: number };
const samples = await alternate<Sample>(child, rounds, [String(pages)]);
console.log(
  `\nsecond check of an unchanged ${pages}-page site, ${rounds} rounds (medians); load ${loadavg()[0]!.toFixed(1)}`,
);
console.log('build       | full bodies | 304s | pages same | wall ms | CPU ms');
for (const [name, list] of samples) {
  const of = (field: keyof Sample) => median(list.map((s) => s[field]));
  console.log(
    `${name.padEnd(11)} | ${String(of('full')).padStart(11)} | ${String(of('notModified')).padStart(4)} | ${String(of('same')).padStart(10)} | ${of('ms').toFixed(0).padStart(7)} | ${of('cpuMs').toFixed(0).padStart(6)}`,
  );
}
