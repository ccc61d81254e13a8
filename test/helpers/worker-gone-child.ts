/**
 * `CRAWLKIT_TEST_WORKER_GONE=<file> node --import ./test/helpers/built-hooks.ts --import
 * ./test/helpers/extraction-worker-gone.ts test/helpers/worker-gone-child.ts <url>`: scrapes `url` with a working
 * extraction thread, then makes new threads unable to load (the file appears) and stops the thread that loaded (as a
 * crash or a page cut past its budget does), scrapes `url?again` (timeout 20 s) and prints `result <JSON>`: the first
 * answer's success, the second's code and error, and how long the second took.
 */
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';

import { Crawlkit } from 'crawlkit';

const url = process.argv[2]!;
// The start of the first page's call, told when the worker's message comes: over the worker's own port, so it may
// come after the answer (piscina's port). Read at the answer, it was not there yet in a loaded CI run: no thread was
// stopped, and the loaded one answered the second page.
const started = new Promise<() => Promise<number>>((resolve) => {
  subscribe('crawlkit:extraction:call-start', (start) => {
    resolve((start as { terminate: () => Promise<number> }).terminate);
  });
});
const ck = new Crawlkit({ store: 'memory', engine: 'http', workers: { size: 1 } });
const first = await ck.scrape({ url });
writeFileSync(process.env.CRAWLKIT_TEST_WORKER_GONE!, '');
const terminate = await started;
await terminate();
const at = performance.now();
const page = await ck.scrape({ url: `${url}?again`, timeout: 20_000 });
const ms = performance.now() - at;
await ck.close();
const { code, error } = page.success ? { code: undefined, error: undefined } : page;
process.stdout.write(`result ${JSON.stringify({ first: first.success, code, error, ms })}\n`);
