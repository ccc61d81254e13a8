/**
 * A monitor's second check of an unchanged site (a crawl target of a generated changing site): the requests its
 * pages cost (full bodies, `304 Not Modified`) and its wall and CPU time, for two builds side by side in alternating
 * processes, each with its own store and site. Rows are the medians of the rounds.
 *
 *   pnpm build && node bench/monitor-recheck.ts [--quick] [--pages 300] [--rounds 3]   (quick: 60 pages, 1 round)
 *   CK_BENCH_BASE=<baseline worktree>/packages/crawlkit/dist/index.js: the build compared (else this one alone).
 *   CK_BENCH_CRAWLKIT=<build>/packages/crawlkit/dist/index.js: the build measured (else this worktree's).
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

import { alternate, median, numberOption } from './lib/ab-builds.ts';
import { finish, isQuick, type Row } from './lib/report.ts';

const quick = isQuick();
const pages = numberOption('--pages', quick ? 60 : 300);
const rounds = numberOption('--rounds', quick ? 1 : 3);
const child = fileURLToPath(new URL('./lib/monitor-recheck-child.ts', import.meta.url));

type Sample = { full: number; notModified: number; ms: number; cpuMs: number; same: number };
const samples = await alternate<Sample>(child, rounds, [String(pages)]);
const rows: Row[] = [...samples].map(([build, list]) => {
  const of = (field: keyof Sample) => median(list.map((s) => s[field]));
  return {
    build,
    'full bodies': of('full'),
    '304s': of('notModified'),
    'pages same': of('same'),
    'wall ms': Math.round(of('ms')),
    'cpu ms': Math.round(of('cpuMs')),
  };
});
finish({
  name: 'monitor-recheck',
  title: `a monitor's second check of an unchanged ${pages}-page site (${rounds} rounds, load ${loadavg()[0]!.toFixed(1)})`,
  quick,
  rows,
  goals: [],
  data: { pages, rounds, samples: Object.fromEntries(samples) },
});
