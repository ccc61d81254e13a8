// Profiles crawlkit's scrape() of one WCXB dev page over local HTTP, timed region only (node:inspector), and prints
// where the time went. The pages of bench/README.md's "One parse per page" profiles: 0588 (the largest, 5.3 MB) and
// 0471 (the median by size, 0.14 MB).
// Usage: node bench/lib/profile-scrape.ts <id> [runs] [workers.size] [--whole]   (writes /tmp/crawlkit-scrape-<id>.cpuprofile)
//        --whole: onlyMainContent false (the whole-page markdown row of bench:markdown)
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Crawlkit } from 'crawlkit';

import { summarizeProfile } from './cpu-profile.ts';
import { startPageServer } from './page-server.ts';
import { loadWcxbPages } from './wcxb.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const datasets = process.env.WCXB_DIR ?? join(here, '../../../shared/datasets/wcxb-dev');
const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const wholePage = process.argv.includes('--whole');
const id = positional[0] ?? '0588';
const runs = Number(positional[1] ?? 10);
const workers = Number(positional[2] ?? 0);
const page = loadWcxbPages(datasets, new Set([id]))[0]!;
const server = await startPageServer(new Map([['/p.html', page.html]]));
const ck = new Crawlkit({ store: 'memory', engine: 'http', workers: { size: workers } });
const body = {
  url: `${server.url}/p.html`,
  formats: ['markdown'],
  onlyMainContent: !wholePage,
  maxAge: 0,
  storeInCache: false,
};
for (let i = 0; i < 2; i++) await ck.scrape(body as never);
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
const times: number[] = [];
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  await ck.scrape(body as never);
  times.push(performance.now() - t0);
}
const file = `/tmp/crawlkit-scrape-${id}.cpuprofile`;
writeFileSync(file, JSON.stringify((await session.post('Profiler.stop')).profile));
times.sort((a, b) => a - b);
console.log(
  `page ${id}, ${(page.html.length / 1e6).toFixed(2)} MB: median ${times[Math.floor(runs / 2)]!.toFixed(1)} ms over ${runs} scrapes`,
);
const summary = summarizeProfile(file, join(here, '../..'), 18);
const line = (h: { share: number; selfMs: number; name: string }) =>
  `  ${(h.share * 100).toFixed(1).padStart(5)}% ${String(h.selfMs).padStart(6)} ms  ${h.name}`;
console.log(
  `profile: ${summary.totalMs} ms (${summary.idleMs} idle)\n by file:\n${summary.files.map(line).join('\n')}`,
);
console.log(` by function:\n${summary.functions.map(line).join('\n')}`);
await ck.close();
await server.close();
