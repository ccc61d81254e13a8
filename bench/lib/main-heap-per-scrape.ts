// What the main thread allocates a whole-page scrape, in and outside V8's heap (issue 37, gc37b): for each scrape of
// the 12 largest dev pages after a warm-up pass, the growth of each V8 space, `process.memoryUsage().arrayBuffers`
// and V8's external memory (`v8.getHeapStatistics().external_memory`, what starts a marking for "external memory
// pressure"; shared memory is not counted there), the process's RSS, and the collections that ran (kind:duration ms,
// kinds as `PerformanceObserver` gives them: 1 minor, 4 major, 8 incremental, 16 weak callbacks).
//
//   node bench/lib/main-heap-per-scrape.ts [PASSES=2]          CK_BENCH_CRAWLKIT=<dist/index.js>: another build
//   CK_HEAP_LAST=1 prints only the last page of each pass.
import { PerformanceObserver, type NodeGCPerformanceDetail } from 'node:perf_hooks';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';

import { startPageServerProcess } from './page-server-process.ts';
import { loadWcxbPages } from './wcxb.ts';
import { wholePageScraper } from './whole-page-scrape.ts';
import { loadCrawlkit } from './crawlkit-build.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const datasets = process.env.WCXB_DIR ?? join(here, '../../../shared/datasets/wcxb-dev');
const passes = Number(process.argv[2] ?? 2);

const pages = loadWcxbPages(datasets)
  .sort((a, b) => b.html.length - a.html.length)
  .slice(0, 12);
const ids = pages.map((p) => p.id);
const server = await startPageServerProcess(new Map(pages.map((p) => [`/${p.id}.html`, p.html])));
pages.length = 0;
const { Crawlkit } = await loadCrawlkit();
const crawlkit = new Crawlkit({ store: 'memory', engine: 'http' });

const collections: string[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const detail = (e as PerformanceEntry & { detail?: NodeGCPerformanceDetail }).detail;
    collections.push(`${detail?.kind ?? '?'}:${e.duration.toFixed(1)}`);
  }
}).observe({ entryTypes: ['gc'] });

const spaces = () => new Map(getHeapSpaceStatistics().map((s) => [s.space_name, s.space_used_size]));
const mb = (n: number) => (n / 1048576).toFixed(2);
const outside = () => ({
  arrayBuffers: process.memoryUsage().arrayBuffers,
  external: getHeapStatistics().external_memory,
});

const scrape = wholePageScraper(crawlkit, server.url);

try {
  for (const id of ids) await scrape(id);
  for (let p = 0; p < passes; p++) {
    for (const id of ids) {
      const [heapBefore, before] = [spaces(), outside()];
      collections.length = 0;
      await scrape(id);
      const [heapAfter, after] = [spaces(), outside()];
      if (process.env.CK_HEAP_LAST === '1' && id !== ids.at(-1)) continue;
      const grown = [...heapAfter]
        .map(([space, used]) => [space.replace('_space', ''), used - (heapBefore.get(space) ?? 0)] as const)
        .filter(([, delta]) => Math.abs(delta) > 50_000)
        .map(([space, delta]) => `${space} ${mb(delta)}`)
        .join(', ');
      console.log(
        `pass ${p} ${id}  heap: ${grown || '-'}  arrayBuffers ${mb(before.arrayBuffers)} -> ${mb(after.arrayBuffers)}` +
          `  external ${mb(before.external)} -> ${mb(after.external)}  rss ${mb(process.memoryUsage().rss)}` +
          `  collections ${collections.join(' ') || '-'}`,
      );
    }
  }
} finally {
  await crawlkit.close();
  await server.close();
}
