// Whole-page scrapes of the 12 largest dev pages, variants side by side in alternating child processes (issue 37,
// gc37): a variant is a crawlkit build and Node/V8 flags. Each child scrapes every page once to warm up, then
// `passes` times, and reports the CPU a scrape by thread (main, pool workers, V8's helper threads) and the median wall
// time; the pages come from one page server process shared by all children.
//
//   node bench/lib/whole-page-gc-ab.ts ROUNDS PASSES name=BUILD[,FLAG...] name=BUILD[,FLAG...] ...
//   e.g. node bench/lib/whole-page-gc-ab.ts 4 3 main=/work/gc37-base/packages/crawlkit/dist/index.js branch=
//   An empty BUILD is this worktree's build; after the build, `--flag`s for node and `NAME=value`s for the child's
//   environment. CK_AB_ROW=1: bench:markdown's whole-page row instead (`timeBigPages`, turndown beside; PASSES runs a
//   page, wall = its median scrape), CK_AB_ROW=2 the same with turndown not run. CK_AB_IDS=0588,0643: other pages.
//   CK_AB_KEEP=DIR keeps each child's output (its --trace-gc). In a variant's environment: CK_AB_HOLD=1 keeps the
//   pages' HTML in the child's heap (as the row's process does), CK_AB_NOWARM=1 skips the warm-up pass, CK_AB_MAIN=1
//   scrapes the main content, CK_AB_SAME=1 scrapes each page PASSES times in a row (the row's order).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';

import { timeBigPages } from './markdown-big-pages.ts';
import { startPageServerProcess } from './page-server-process.ts';
import { median } from './report.ts';
import { threadCpuMs, threadCpuSince } from './thread-cpu.ts';
import { loadWcxbPages } from './wcxb.ts';
import { loadCrawlkit } from './crawlkit-build.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const datasets = process.env.WCXB_DIR ?? join(here, '../../../shared/datasets/wcxb-dev');
const fmt = (n: number) => n.toFixed(1);

/** The whole-page row itself (`timeBigPages`, turndown in this process too): its ratio and CPU a scrape. */
async function rowChild(): Promise<void> {
  const pages = loadWcxbPages(datasets, new Set(process.env.CK_AB_IDS!.split(',')));
  pages.sort((a, b) => b.html.length - a.html.length);
  const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  td.use(gfm);
  // CK_AB_ROW=2: turndown not run (a stub), to see what its garbage in this process costs the scrapes.
  const converter = process.env.CK_AB_ROW === '2' ? ({ turndown: () => '' } as unknown as TurndownService) : td;
  const res = await timeBigPages(pages, converter, Number(process.env.CK_AB_PASSES), { wholePage: true });
  const cpu = res.cpuPerScrape!;
  const row = { wall: res.medianScrapeMs, main: cpu.main, workers: cpu.workers, v8: cpu.v8 };
  console.log(JSON.stringify({ ...row, rssMb: process.resourceUsage().maxRSS / 1024, ratio: res.medianSpeedup }));
}

async function child(): Promise<void> {
  const [base, ids, passes] = [
    process.env.CK_AB_URL!,
    process.env.CK_AB_IDS!.split(','),
    Number(process.env.CK_AB_PASSES),
  ];
  const { Crawlkit } = await loadCrawlkit();
  const crawlkit = new Crawlkit({ store: 'memory', engine: 'http' });
  const scrape = async (id: string) => {
    const t0 = performance.now();
    const doc = await crawlkit.scrape({
      url: `${base}/${id}.html`,
      formats: ['markdown'],
      onlyMainContent: process.env.CK_AB_MAIN === '1',
      maxAge: 0,
      storeInCache: false,
    });
    if (!doc.success) throw new Error(`scrape of ${id} failed`);
    return performance.now() - t0;
  };
  const held = process.env.CK_AB_HOLD === '1' ? loadWcxbPages(datasets, new Set(ids)) : [];
  if (process.env.CK_AB_NOWARM !== '1') for (const id of ids) await scrape(id);
  else await scrape(ids.at(-1)!);
  const before = threadCpuMs()!;
  const wall: number[] = [];
  if (process.env.CK_AB_SAME === '1')
    for (const id of ids) for (let p = 0; p < passes; p++) wall.push(await scrape(id));
  else for (let p = 0; p < passes; p++) for (const id of ids) wall.push(await scrape(id));
  held.length = 0;
  const cpu = threadCpuSince(before, threadCpuMs()!);
  await crawlkit.close();
  const n = wall.length;
  console.log(
    JSON.stringify({
      wall: median(wall),
      main: cpu.main / n,
      workers: cpu.workers / n,
      v8: cpu.v8 / n,
      rssMb: process.resourceUsage().maxRSS / 1024,
    }),
  );
}

async function parent(): Promise<void> {
  const [rounds, passes, ...specs] = process.argv.slice(2);
  const variants = specs.map((spec) => {
    const at = spec.indexOf('=');
    const [name, rest] = [spec.slice(0, at), spec.slice(at + 1)];
    const [build, ...more] = rest.split(',');
    const flags = more.filter((m) => m.startsWith('--'));
    const env = Object.fromEntries(
      more.filter((m) => !m.startsWith('--')).map((m) => m.split('=') as [string, string]),
    );
    return { name, build: build ?? '', flags, env };
  });
  // bench:markdown's pages: the 12 largest by their text.
  const ids =
    process.env.CK_AB_IDS?.split(',') ??
    loadWcxbPages(datasets)
      .sort((a, b) => b.html.length - a.html.length)
      .slice(0, 12)
      .map((p) => p.id);
  const pages = loadWcxbPages(datasets, new Set(ids));
  const server = await startPageServerProcess(new Map(pages.map((p) => [`/${p.id}.html`, p.html])));
  const rows = new Map<
    string,
    { wall: number; main: number; workers: number; v8: number; rssMb: number; ratio?: number }[]
  >();
  try {
    for (let r = 0; r < Number(rounds); r++) {
      const order = r % 2 ? [...variants].reverse() : variants;
      for (const v of order) {
        const out = execFileSync(process.execPath, [...v.flags, fileURLToPath(import.meta.url), '--child'], {
          env: {
            ...process.env,
            CK_AB_URL: server.url,
            CK_AB_IDS: ids.join(','),
            CK_AB_PASSES: passes,
            // `timeBigPages` (CK_AB_ROW) takes an empty path for a module name: this worktree's build by its path.
            CK_BENCH_CRAWLKIT:
              v.build || fileURLToPath(new URL('../../packages/crawlkit/dist/index.js', import.meta.url)),
            ...v.env,
          },
          encoding: 'utf8',
        });
        if (process.env.CK_AB_KEEP) writeFileSync(join(process.env.CK_AB_KEEP, `${v.name}-${r}.txt`), out);
        const row = JSON.parse(out.trim().split('\n').at(-1)!) as {
          wall: number;
          main: number;
          workers: number;
          v8: number;
          rssMb: number;
          ratio?: number;
        };
        (rows.get(v.name) ?? rows.set(v.name, []).get(v.name)!).push(row);
        const all = row.main + row.workers + row.v8;
        console.log(
          `round ${r} ${v.name.padEnd(8)} wall ${fmt(row.wall)}  CPU a scrape: main ${fmt(row.main)} workers ${fmt(row.workers)} V8 helpers ${fmt(row.v8)} all ${fmt(all)}  peak RSS ${row.rssMb.toFixed(0)} MiB` +
            (row.ratio === undefined ? '' : `  row ${row.ratio.toFixed(2)}x turndown`),
        );
      }
    }
  } finally {
    await server.close();
  }
  console.log('medians over the rounds (ms a scrape):');
  for (const [name, list] of rows) {
    const m = (k: 'wall' | 'main' | 'workers' | 'v8' | 'rssMb') => median(list.map((x) => x[k]));
    const all = median(list.map((x) => x.main + x.workers + x.v8));
    console.log(
      `  ${name.padEnd(8)} wall ${fmt(m('wall'))}  main ${fmt(m('main'))} workers ${fmt(m('workers'))} V8 helpers ${fmt(m('v8'))} all ${fmt(all)}  peak RSS ${m('rssMb').toFixed(0)} MiB` +
        (list[0]?.ratio === undefined ? '' : `  row ${median(list.map((x) => x.ratio!)).toFixed(2)}x`),
    );
  }
}

if (process.argv.includes('--child')) await (process.env.CK_AB_ROW ? rowChild() : child());
else await parent();
