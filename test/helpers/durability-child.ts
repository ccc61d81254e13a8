/**
 * Child process of `test/durability.test.ts`, run from the TypeScript sources:
 *   node --import ./test/helpers/built-hooks.ts test/helpers/durability-child.ts start <storeDir> <baseUrl>
 *   node --import ./test/helpers/built-hooks.ts test/helpers/durability-child.ts resume <storeDir>
 * `start` creates a crawl and a batch on the store and prints `{"crawl":id,"batch":id}`; `resume` opens the store
 * with `resumeJobs: true` and prints `resumed`. Both then run until no job of the store is unfinished, close the
 * engine and print `done`. The test kills them with SIGKILL at chosen points.
 */
import { Crawlkit } from 'crawlkit';

import { BATCH_PAGES, CRAWL_PATH, batchPath } from './durability-site.ts';
import { untilJobsDone } from './until-jobs-done.ts';

const [mode, storeDir, baseUrl] = process.argv.slice(2);
const ck = new Crawlkit({
  storeDir: storeDir!,
  engine: 'http',
  concurrency: 4,
  resumeJobs: mode === 'resume',
  // Tells the test's server which process made each request.
  http: { userAgent: `crawlkit-durability/${process.pid}` },
});
ck.on('error', (event) => process.stderr.write(`engine error: ${JSON.stringify(event)}\n`));

if (mode === 'start') {
  // maxAge 0: every scrape fetches, so the fixture server's request log shows every scrape.
  const crawl = await ck.crawl({
    url: `${baseUrl}${CRAWL_PATH}`,
    sitemap: 'skip',
    limit: 1000,
    maxConcurrency: 3,
    scrapeOptions: { formats: ['markdown'], maxAge: 0 },
  });
  const batch = await ck.batchScrape({
    urls: Array.from({ length: BATCH_PAGES }, (_, i) => `${baseUrl}${batchPath(i + 1)}`),
    maxConcurrency: 3,
    formats: ['markdown'],
    maxAge: 0,
  });
  if (!crawl.success || !batch.success) throw new Error(`start failed: ${JSON.stringify({ crawl, batch })}`);
  process.stdout.write(`${JSON.stringify({ crawl: crawl.id, batch: batch.id })}\n`);
} else if (mode === 'resume') {
  process.stdout.write('resumed\n');
} else {
  throw new Error(`unknown mode ${String(mode)}`);
}

await untilJobsDone(ck);
