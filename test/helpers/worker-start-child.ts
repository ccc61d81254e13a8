/**
 * `node --import ./test/helpers/built-hooks.ts --import ./test/helpers/no-extraction-worker.ts
 * test/helpers/worker-start-child.ts <url>`: scrapes `url` (timeout 20 s) with extraction workers that cannot load,
 * and prints `result <JSON>`: the answer's code and error, and how long it took.
 */
import { Crawlkit } from 'crawlkit';

const ck = new Crawlkit({ store: 'memory', engine: 'http' });
const at = performance.now();
const page = await ck.scrape({ url: process.argv[2]!, timeout: 20_000 });
const ms = performance.now() - at;
await ck.close();
const { code, error } = page.success ? { code: undefined, error: undefined } : page;
process.stdout.write(`result ${JSON.stringify({ code, error, ms })}\n`);
