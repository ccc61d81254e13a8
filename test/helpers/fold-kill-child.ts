/**
 * Child process of `test/crawl-fold-kill.test.ts`, run on the build:
 *   node --import ./test/helpers/built-hooks.ts test/helpers/fold-kill-child.ts start <storeDir> <seedUrl>
 *   node --import ./test/helpers/built-hooks.ts test/helpers/fold-kill-child.ts resume <storeDir>
 * `start` creates a crawl of the seed, one page at a time, and prints `{"crawl":id}`; `resume` opens the store with
 * `resumeJobs: true` and prints `resumed`. Both then run until no job of the store is unfinished, close the engine
 * and print `done`. The test kills `start` with SIGKILL.
 */
import { Crawlkit } from 'crawlkit';

import { untilJobsDone } from './until-jobs-done.ts';

const [mode, storeDir, seedUrl] = process.argv.slice(2);
const ck = new Crawlkit({ storeDir: storeDir!, engine: 'http', resumeJobs: mode === 'resume' });
ck.on('error', (event) => process.stderr.write(`engine error: ${JSON.stringify(event)}\n`));

if (mode === 'start') {
  const crawl = await ck.crawl({
    url: seedUrl!,
    sitemap: 'skip',
    maxConcurrency: 1,
    scrapeOptions: { formats: ['markdown'], maxAge: 0 },
  });
  if (!crawl.success) throw new Error(`start failed: ${JSON.stringify(crawl)}`);
  process.stdout.write(`${JSON.stringify({ crawl: crawl.id })}\n`);
} else if (mode === 'resume') {
  process.stdout.write('resumed\n');
} else {
  throw new Error(`unknown mode ${String(mode)}`);
}

await untilJobsDone(ck);
