// The whole-page row's scrapes profiled on every thread, its timed part only (issue 37, w70): the 12 largest WCXB dev
// pages, `scrape()` with markdown and `onlyMainContent: false` as `markdown-big-pages.ts` runs them (pages served from
// a child process, the pool on, the same warm-up), then `rounds` x 12 pages x 3 scrapes under `--cpu-prof`.
//
//   pnpm exec node bench/lib/profile-whole-page.ts [rounds] [top] [--default-config]
//
// The process runs itself again under `node --cpu-prof`, which writes one profile a thread (the main thread and each
// of the pool's workers), and prints the `process.hrtime` of its timed part; each profile is then read over that span
// alone (`summarizeProfile`'s window), so the warm-up's compiling stays out of the worker's figures, as
// `profile-scrape.ts` (main thread, inspector) cannot. Prints the stages a scrape and, by thread, the top functions by
// self time. --default-config: crawlkit's default configuration (on-disk store, each scrape a new URL).
import { execFileSync } from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { summarizeProfile, type HotSpot } from './cpu-profile.ts';
import { loadCrawlkit } from './crawlkit-build.ts';
import { bigPagesWarmUp } from './markdown-big-pages.ts';
import { startPageServerProcess } from './page-server-process.ts';
import { threadCpuMs, threadCpuSince } from './thread-cpu.ts';
import { loadWcxbPages } from './wcxb.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const rounds = Number(positional[0] ?? 3);
const top = Number(positional[1] ?? 25);
const defaultConfig = process.argv.includes('--default-config');
const WINDOW = 'profile-whole-page window';

if (process.env.CK_PROFILE_CHILD) await child();
else parent();

function parent(): void {
  const dir = mkdtempSync(join(tmpdir(), 'ck-bench-profile-'));
  try {
    const out = execFileSync(
      process.execPath,
      ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=200', fileURLToPath(import.meta.url)].concat(
        process.argv.slice(2),
      ),
      { env: { ...process.env, CK_PROFILE_CHILD: '1' }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [startUs, endUs] = out
      .match(new RegExp(`${WINDOW} (\\d+) (\\d+)`))!
      .slice(1)
      .map(Number);
    console.log(out.replace(/^profile-whole-page window.*\n/m, '').trimEnd());
    const line = (h: HotSpot) =>
      `  ${(h.share * 100).toFixed(1).padStart(5)}% ${String(h.selfMs).padStart(6)} ms  ${h.name}`;
    // CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile: thread 0 is the main thread, the others the pool's workers
    for (const file of readdirSync(dir).sort()) {
      const thread = file.split('.')[4] === '0' ? 'main thread' : `worker thread ${file.split('.')[4]}`;
      const s = summarizeProfile(join(dir, file), join(here, '../..'), top, { startUs: startUs!, endUs: endUs! });
      console.log(`\n${thread}: ${s.totalMs} ms sampled, ${s.idleMs} idle; self time by function:`);
      console.log(s.functions.map(line).join('\n'));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function child(): Promise<void> {
  const datasets = process.env.WCXB_DIR ?? join(here, '../../../shared/datasets/wcxb-dev');
  const bySize = loadWcxbPages(datasets).sort((a, b) => a.html.length - b.html.length);
  const largest = bySize.slice(-12).reverse();
  const warmUp = bigPagesWarmUp(bySize, 12);
  const { Crawlkit } = await loadCrawlkit();
  const storeDir = defaultConfig ? mkdtempSync(join(tmpdir(), 'ck-bench-profile-store-')) : undefined;
  const crawlkit = new Crawlkit(storeDir ? { storeDir, engine: 'http' } : { store: 'memory', engine: 'http' });
  const pages = new Map([...largest, ...warmUp].map((p) => [`/${p.id}.html`, p.html]));
  const server = await startPageServerProcess(pages);
  let fresh = 0;
  const body = (id: string) => ({
    url: `${server.url}/${id}.html${storeDir ? `?run=${fresh++}` : ''}`,
    formats: ['markdown' as const],
    onlyMainContent: false,
    ...(storeDir ? {} : { maxAge: 0, storeInCache: false }),
  });
  const stages = new Map<string, number>();
  let timed = false;
  subscribe('crawlkit:scrape:timings', (message) => {
    if (!timed) return;
    const m = message as { stages: { name: string; ms: number }[]; extraction?: Record<string, number> };
    for (const s of m.stages) stages.set(s.name, (stages.get(s.name) ?? 0) + s.ms);
    for (const [k, v] of Object.entries(m.extraction ?? {}))
      stages.set(`extract.${k}`, (stages.get(`extract.${k}`) ?? 0) + v);
  });
  try {
    await crawlkit.scrape(body(largest[11]!.id));
    for (let i = 0; i < warmUp.length; i += 2) {
      await Promise.all(warmUp.slice(i, i + 2).map((p) => crawlkit.scrape(body(p.id))));
    }
    for (const p of largest) await crawlkit.scrape(body(p.id));
    timed = true;
    const startUs = process.hrtime.bigint() / 1000n;
    const before = threadCpuMs();
    const t0 = performance.now();
    let n = 0;
    for (let r = 0; r < rounds; r++) {
      for (const p of largest) {
        for (let i = 0; i < 3; i++, n++) {
          if (!(await crawlkit.scrape(body(p.id))).success) throw new Error(`scrape of ${p.id} failed`);
        }
      }
    }
    const wall = performance.now() - t0;
    const endUs = process.hrtime.bigint() / 1000n;
    const after = threadCpuMs();
    console.log(`${WINDOW} ${startUs} ${endUs}`);
    const ms = (v: number) => (v / n).toFixed(2);
    const cpu = before && after ? threadCpuSince(before, after) : undefined;
    console.log(
      `${n} scrapes, wall ${ms(wall)} ms a scrape` +
        (cpu ? `; CPU main ${ms(cpu.main)} workers ${ms(cpu.workers)} V8 helpers ${ms(cpu.v8)}` : '') +
        ` (the profiler's own thread counts as other: ${cpu ? ms(cpu.other) : '?'})`,
    );
    console.log(`stages a scrape: ${[...stages].map(([k, v]) => `${k} ${ms(v)}`).join(', ')}`);
  } finally {
    await crawlkit.close();
    await server.close();
    if (storeDir) rmSync(storeDir, { recursive: true, force: true });
  }
}
