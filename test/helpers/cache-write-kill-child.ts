/**
 * Child process of `test/cache.test.ts`, run from the TypeScript sources:
 *   node --import ./test/helpers/source-hooks.ts test/helpers/cache-write-kill-child.ts <storeDir> <url>
 * Scrapes `url` into the store, prints the answer's `cacheState` and kills itself with SIGKILL in the same turn: after
 * the answer, before the page's cache write commits.
 */
import { Crawlkit } from 'crawlkit';

const [storeDir, url] = process.argv.slice(2);
const ck = new Crawlkit({ storeDir: storeDir!, engine: 'http' });
const answer = await ck.scrape({ url: url! });
process.stdout.write(JSON.stringify(answer.success ? answer.data.metadata.cacheState : answer));
process.kill(process.pid, 'SIGKILL');
