// CPU a page of `extractPage` on the main-content path (the scrape-http pages: every 4th WCXB dev page; markdown,
// links and metadata of the main content, as `bench:scrape`'s rows ask), warm, in one process: this build alone, or
// side by side with another build of the extractor (A/B, alternating rounds), or with a CPU profile.
//
//   pnpm exec node bench/lib/profile-extract.ts [rounds]                 this build: CPU ms a page, each round
//   CK_EXTRACTOR_B=<dir>/index.js pnpm exec node bench/lib/profile-extract.ts [rounds]
//        A = this build, B = another build's dist (keep it inside packages/extractor, e.g. a copy of dist in
//        packages/extractor/.dist-base, so that it resolves the same dependencies); alternating rounds, medians.
//        Two builds in one process disturb each other (an A/A run reads ±5%): alternating processes, each given one
//        build as CK_EXTRACTOR_A=<dir>/index.js, read better
//   --profile   a CPU profile of the timed rounds (writes /tmp/crawlkit-extract.cpuprofile) and its top rows
//   --every N   every Nth page (default 4)
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { extractPage } from '@crawlkit/extractor';

import { summarizeProfile } from './cpu-profile.ts';
import { loadWcxbPages } from './wcxb.ts';

type Extract = typeof extractPage;

const here = fileURLToPath(new URL('.', import.meta.url));
const datasets = process.env.WCXB_DIR ?? join(here, '../../../shared/datasets/wcxb-dev');
const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const rounds = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== '--every') ?? 6);
const every = Number(flag('--every') ?? 4);
const profile = args.includes('--profile');
const aPath = process.env.CK_EXTRACTOR_A ?? '@crawlkit/extractor';
const bPath = process.env.CK_EXTRACTOR_B;
const extractA = ((await import(aPath)) as { extractPage: Extract }).extractPage;
const extractB = bPath ? ((await import(bPath)) as { extractPage: Extract }).extractPage : undefined;

const pages = loadWcxbPages(datasets, { every });
const options = (url: string) => ({
  url,
  onlyMainContent: true,
  formats: { markdown: true, links: true, metadata: true },
});

/**
 * CPU ms a page of one pass over the pages: this thread's (`threadCpuUsage`) and the process's (with V8's helper
 * threads: parallel and concurrent garbage collection, compilation).
 */
function pass(extract: Extract, into: [number[], number[]]): void {
  const t0 = process.threadCpuUsage();
  const p0 = process.cpuUsage();
  for (const page of pages) extract(page.html, options(page.url));
  const t = process.threadCpuUsage(t0);
  const p = process.cpuUsage(p0);
  into[0].push((t.user + t.system) / 1000 / pages.length);
  into[1].push((p.user + p.system) / 1000 / pages.length);
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const a: [number[], number[]] = [[], []];
const b: [number[], number[]] = [[], []];
pass(extractA, [[], []]);
if (extractB) pass(extractB, [[], []]);
let session: Session | undefined;
if (profile) {
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 250 });
  await session.post('Profiler.start');
}
for (let r = 0; r < rounds; r++) {
  const order: [Extract, [number[], number[]]][] = extractB
    ? r % 2
      ? [
          [extractB, b],
          [extractA, a],
        ]
      : [
          [extractA, a],
          [extractB, b],
        ]
    : [[extractA, a]];
  for (const [extract, into] of order) pass(extract, into);
}
const fmt = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' ');
const row = (name: string, [thread, all]: [number[], number[]]) =>
  `${name}: thread median ${median(thread).toFixed(2)} [${fmt(thread)}]; process median ${median(all).toFixed(2)} [${fmt(all)}]`;
console.log(`${pages.length} pages (every ${every}th), ${rounds} rounds, CPU ms a page`);
console.log(row(`A (${aPath})`, a));
if (extractB) {
  console.log(row(`B (${bPath})`, b));
  const ratio = (i: 0 | 1) => (median(a[i]) / median(b[i])).toFixed(3);
  console.log(`A/B thread ${ratio(0)}, process ${ratio(1)}`);
}
if (session) {
  const file = '/tmp/crawlkit-extract.cpuprofile';
  writeFileSync(file, JSON.stringify((await session.post('Profiler.stop')).profile));
  const summary = summarizeProfile(file, join(here, '../..'), 40);
  const line = (h: { share: number; selfMs: number; name: string }) =>
    `  ${(h.share * 100).toFixed(1).padStart(5)}% ${String(h.selfMs).padStart(6)} ms  ${h.name}`;
  console.log(`profile: ${summary.totalMs} ms\n by file:\n${summary.files.map(line).join('\n')}`);
  console.log(` by function:\n${summary.functions.map(line).join('\n')}`);
}
