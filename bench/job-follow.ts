/**
 * Following running jobs from a process that does not run them, to their end (`serve --redis` logs the end of every
 * job it accepts; any `waitForJob` on a job the deployment's workers run) or page by page (`watch`: the job
 * WebSocket, the CLI's `crawl` and `batch` as they print pages): the CPU that costs this process and
 * redis-server, for thousands of crawls and for batches whose records hold a megabyte of URLs, for two builds side
 * by side in alternating processes of their own (`lib/job-follow-child.ts`, each on a fresh Redis). Rows are the
 * medians of the rounds, in % of one core.
 *
 *   pnpm build && node bench/job-follow.ts [--quick] [--rounds 3] [--seconds 10]   (quick: 1 round of 5 s)
 *   CK_BENCH_BASE=<baseline worktree>/packages/crawlkit/dist/index.js: the build compared (else this one alone).
 *   CK_BENCH_CRAWLKIT=<build>/packages/crawlkit/dist/index.js: the build measured (else this worktree's).
 */
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { alternate, median, numberOption } from './lib/ab-builds.ts';
import { finish, isQuick, type Row } from './lib/report.ts';

const quick = isQuick();
const rounds = numberOption('--rounds', quick ? 1 : 3);
const seconds = numberOption('--seconds', quick ? 5 : 10);
const child = join(dirname(fileURLToPath(import.meta.url)), 'lib', 'job-follow-child.ts');

type Sample = { processPct: number; redisPct: number };
const cases: { label: string; args: [count: number, kind: string, kb: number, follow: 'wait' | 'watch'] }[] = [
  { label: '200 crawls, to their end', args: [200, 'crawl', 0, 'wait'] },
  { label: '2,000 crawls, to their end', args: [2_000, 'crawl', 0, 'wait'] },
  { label: '20 batches, 1 MB records, to their end', args: [20, 'batch', 1_024, 'wait'] },
  { label: '200 crawls, watched', args: [200, 'crawl', 0, 'watch'] },
  { label: '2,000 crawls, watched', args: [2_000, 'crawl', 0, 'watch'] },
  { label: '20 batches, 1 MB records, watched', args: [20, 'batch', 1_024, 'watch'] },
];
const rows: Row[] = [];
const data: Record<string, Record<string, Sample[]>> = {};
for (const { label, args } of cases) {
  const samples = await alternate<Sample>(child, rounds, [...args.map(String), String(seconds)]);
  data[label] = Object.fromEntries(samples);
  for (const [build, list] of samples) {
    rows.push({
      jobs: label,
      build,
      'this process, % of a core': Math.round(median(list.map((s) => s.processPct)) * 100) / 100,
      'redis-server, % of a core': Math.round(median(list.map((s) => s.redisPct)) * 100) / 100,
    });
  }
}
finish({
  name: 'job-follow',
  title: `following running jobs from a process that does not run them (${rounds} rounds of ${seconds} s, load ${loadavg()[0]!.toFixed(1)})`,
  quick,
  rows,
  goals: [],
  data: { rounds, seconds, samples: data },
});
