/**
 * Child process of `test/startup-modules.test.ts`: records every module this thread loads, then
 *   import   imports crawlkit;
 *   scrape   imports crawlkit and scrapes `url` to markdown (memory store);
 *   worker   imports the extraction worker's module: what a worker loads before its first page.
 * Prints the URLs of the loaded modules as one JSON array. Run from the sources
 * (`node --import ./test/helpers/source-hooks.ts test/helpers/startup-modules-child.ts <mode> [url]`), or on a build:
 * `CK_STARTUP_BUILD=<packages/crawlkit/dist>` imports its `index.js` and `extraction/worker.js` instead.
 */
import { registerHooks } from 'node:module';

import type * as CrawlkitModule from 'crawlkit';

const loaded: string[] = [];
registerHooks({
  load(url, context, nextLoad) {
    loaded.push(url);
    return nextLoad(url, context);
  },
});

const [mode, url] = process.argv.slice(2);
const build = process.env['CK_STARTUP_BUILD'];
const entry = build ? `${build}/index.js` : 'crawlkit';
const worker = build
  ? `${build}/extraction/worker.js`
  : new URL('../../packages/crawlkit/src/extraction/worker.ts', import.meta.url).href;

if (mode === 'worker') {
  await import(worker);
} else {
  const { Crawlkit } = (await import(entry)) as typeof CrawlkitModule;
  if (mode === 'scrape') {
    const ck = new Crawlkit({ store: 'memory' });
    const result = await ck.scrape({ url: url!, formats: ['markdown'] });
    await ck.close();
    if (!result.success || !result.data.markdown) throw new Error(`the scrape failed: ${JSON.stringify(result)}`);
  }
}
process.stdout.write(JSON.stringify(loaded));
