/**
 * `node --import ./test/helpers/source-hooks.ts test/helpers/browser-signals-child.ts <url> [handler]`: scrapes `url`
 * in the browser, keeps the idle browser, prints `scraped` and runs on, as a server does. With `handler`, SIGINT and
 * SIGTERM are the app's own: it prints `stopping`, closes the engine after a moment (a graceful shutdown that takes
 * time), prints `closed` and lets the process end.
 */
import { Crawlkit } from 'crawlkit';

import { ISOLATED_ARGS } from './scrape.ts';

const ck = new Crawlkit({
  store: 'memory',
  engine: 'browser',
  browser: { args: ISOLATED_ARGS, idleTimeoutMs: 600_000 },
});
const response = await ck.scrape({ url: process.argv[2]!, formats: ['markdown'] });
const serving = setInterval(() => undefined, 60_000);
if (process.argv[3] === 'handler') {
  const stop = async () => {
    process.stdout.write('stopping\n');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await ck.close();
    clearInterval(serving);
    process.stdout.write('closed\n');
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}
process.stdout.write(response.success ? 'scraped\n' : `failed ${response.code}\n`);
