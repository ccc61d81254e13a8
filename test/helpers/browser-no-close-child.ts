/**
 * `node --import ./test/helpers/source-hooks.ts test/helpers/browser-no-close-child.ts <url> [close]`: scrapes `url`
 * in the browser and never calls `close()`, as a short script might. Prints `scraped` or `failed <code>`; the process
 * should then exit by itself once the idle browser is closed. With `close`, it calls `close()` and prints
 * `left <JSON>`: the kinds of handle still holding the process once `close()` has resolved. With `hold`, it keeps the
 * idle browser and runs until it is killed.
 */
import { Crawlkit } from 'crawlkit';

import { ISOLATED_ARGS } from './scrape.ts';

const hold = process.argv[3] === 'hold';
const idleTimeoutMs = hold ? 600_000 : 300;
const ck = new Crawlkit({ store: 'memory', engine: 'browser', browser: { args: ISOLATED_ARGS, idleTimeoutMs } });
const response = await ck.scrape({ url: process.argv[2]!, formats: ['markdown'] });
process.stdout.write(response.success ? 'scraped\n' : `failed ${response.code}\n`);
if (process.argv[3] === 'close') {
  await ck.close();
  await new Promise((resolve) => setImmediate(resolve));
  process.stdout.write(`left ${JSON.stringify(process.getActiveResourcesInfo())}\n`);
}
if (hold) setInterval(() => undefined, 60_000);
