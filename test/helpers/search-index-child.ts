/**
 * Child process of `test/search-consistency.test.ts`, run from the TypeScript sources:
 *   node --import ./test/helpers/built-hooks.ts test/helpers/search-index-child.ts start <storeDir> <baseUrl> <pages>
 *   node --import ./test/helpers/built-hooks.ts test/helpers/search-index-child.ts resume <storeDir>
 * `start` batch-scrapes `/idx/1..pages` into the store (each page written and indexed) and prints the batch id;
 * `resume` finishes the unfinished jobs of the store. Both print `done` at the end. The test kills `start` with
 * SIGKILL while pages are being written.
 */
import { Crawlkit } from 'crawlkit';

const [mode, storeDir, baseUrl, pages] = process.argv.slice(2);
const ck = new Crawlkit({ storeDir: storeDir!, engine: 'http', concurrency: 4, resumeJobs: mode === 'resume' });
ck.on('error', (event) => process.stderr.write(`engine error: ${JSON.stringify(event)}\n`));

if (mode === 'start') {
  const batch = await ck.batchScrape({
    urls: Array.from({ length: Number(pages) }, (_, i) => `${baseUrl}/idx/${i + 1}`),
    formats: ['markdown'],
    maxAge: 0,
  });
  if (!batch.success) throw new Error(JSON.stringify(batch));
  process.stdout.write(`${batch.id}\n`);
  await ck.waitForJob(batch.id);
} else {
  process.stdout.write('resuming\n');
  for (;;) {
    const unfinished = await ck.listUnfinishedJobs();
    if (!Array.isArray(unfinished) || unfinished.length === 0) break;
    for (const job of unfinished) await ck.waitForJob(job.id);
  }
}
await ck.close();
process.stdout.write('done\n');
