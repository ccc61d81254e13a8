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
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const pages = option('--pages', 5_000);
const rounds = option('--rounds', 3);
const here = dirname(fileURLToPath(import.meta.url));
const child = join(here, 'lib', 'monitor-checks-child.ts');
const builds: [string, string][] = [
  ...(process.env['CK_BENCH_BASE'] ? [['baseline', process.env['CK_BENCH_BASE']] as [string, string]] : []),
  ['this build', process.env['CK_BENCH_CRAWLKIT'] || fileURLToPath(import.meta.resolve('crawlkit'))],
];

type Figures = { ms: number; cpuMs: number; written: number; largest: number; read: number; heapDeltaMb: number };
type Sample = Record<'close' | 'detailLast' | 'detailFirst' | 'detailChanged', Figures>;

const samples = new Map<string, Sample[]>(builds.map(([name]) => [name, []]));
for (let round = 0; round < rounds; round++) {
  // The order alternates between rounds: neither build always runs on the warmer machine.
  const order = round % 2 === 0 ? builds : [...builds].reverse();
  for (const [name, entry] of order) {
    const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', child, entry, String(pages)], {
      maxBuffer: 16 * 1024 ** 2,
    });
    samples.get(name)!.push(JSON.parse(stdout.trim().split('\n').at(-1)!) as Sample);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
console.log(
  `\nmonitor check of ${pages} pages, ${rounds} rounds (medians); load ${
    process.platform === 'linux'
      ? (await import('node:os'))
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')
      : '?'
  }`,
);
console.log('build       | step                     | wall ms | CPU ms | largest written | read    | heap held MB');
for (const [name] of builds) {
  const list = samples.get(name)!;
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
