/**
 * `node --import ./test/helpers/built-hooks.ts test/helpers/engine-after-close-child.ts <url>`: scrapes `url` with an
 * engine, closes it, and does the same with a second engine, as a test suite making an engine per test does. Prints
 * `result <JSON>`: the worker thread each page was extracted on, and the kinds of handle still holding the process
 * once the second `close()` has resolved.
 */
import { subscribe } from 'node:diagnostics_channel';

import { Crawlkit } from 'crawlkit';

const threads: number[] = [];
subscribe('crawlkit:extraction:call-start', (message) => threads.push((message as { threadId: number }).threadId));

for (const round of [1, 2]) {
  const ck = new Crawlkit({ store: 'memory', engine: 'http' });
  const response = await ck.scrape({ url: `${process.argv[2]!}?round=${round}`, formats: ['markdown'] });
  if (!response.success) throw new Error(response.error);
  await ck.close();
}
await new Promise((resolve) => setImmediate(resolve));
process.stdout.write(`result ${JSON.stringify({ threads, left: process.getActiveResourcesInfo() })}\n`);
