// bench:markdown's whole-page row alone, for A/B runs of two builds (issue 37, perf37g): the 12 largest WCXB dev
// pages, `scrape()` with `onlyMainContent: false` beside turndown of the page without scripts and styles.
//
//   CK_BENCH_CRAWLKIT=<build>/packages/crawlkit/dist/index.js pnpm exec node bench/lib/whole-page-ab.ts [runs]
//     [--default-config]
//
// One line: the row's median ratio and times, the CPU and minor page faults a scrape by thread, and what a first touch
// of fresh memory costs on the machine at that moment (`fresh-memory.ts`). Run it alternating between builds.
// --default-config: crawlkit's default configuration (on-disk store, page cache on, each scrape a miss and a write),
// with the mean of the pages' median cache-write stage.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';

import { bigPagesWarmUp, timeBigPages } from './markdown-big-pages.ts';
import { loadWcxbPages } from './wcxb.ts';
import { crawlkitEntry } from './crawlkit-build.ts';
import { freshPageMicros } from './fresh-memory.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const datasets = process.env.WCXB_DIR ?? join(here, '../../../shared/datasets/wcxb-dev');
const runs = Number(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 3);
const defaultConfig = process.argv.includes('--default-config');
const bySize = loadWcxbPages(datasets).sort((a, b) => a.html.length - b.html.length);
const largest = bySize.slice(-12).reverse();
const warmUp = bigPagesWarmUp(bySize, 12);
bySize.length = 0;
const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
td.use(gfm);
const r = await timeBigPages(largest, td, runs, { wholePage: true, defaultConfig, warmUp });
const cpu = r.cpuPerScrape;
const faults = r.faultsPerScrape;
console.log(
  `${crawlkitEntry}: ${r.medianSpeedup.toFixed(2)}x scrape ${r.medianScrapeMs.toFixed(1)} ` +
    `turndown ${r.medianTurndownMs.toFixed(1)} ms` +
    (cpu
      ? `  CPU a scrape: main ${cpu.main.toFixed(1)} workers ${cpu.workers.toFixed(1)} V8 ${cpu.v8.toFixed(1)}`
      : '') +
    (faults
      ? `  faults a scrape: main ${faults.main.toFixed(0)} workers ${faults.workers.toFixed(0)}` +
        ` (fresh page ${freshPageMicros().toFixed(1)} µs)`
      : '') +
    (r.cacheWriteMs !== undefined ? `  cache-write ${r.cacheWriteMs.toFixed(1)} ms` : ''),
);
