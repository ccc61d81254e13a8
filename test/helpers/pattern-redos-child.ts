/**
 * `node --import ./test/helpers/built-hooks.ts test/helpers/pattern-redos-child.ts <url>`: crawls and maps `url` with
 * `includePaths: ['(a+)+$']`, a pattern that backtracks for ever on a long run of `a` not at the end (the site links
 * one). Prints `result <JSON>`: the paths crawled and mapped, and how long each call took. Run in a child so that a
 * regex that never returns ends with the process its test kills, not with the test run.
 */
import { Crawlkit } from 'crawlkit';

const url = process.argv[2]!;
const ck = new Crawlkit({ store: 'memory', engine: 'http' });
const pattern = { includePaths: ['(a+)+$'], sitemap: 'skip' as const };
let at = performance.now();
const started = await ck.crawl({ url, ...pattern });
if (!started.success) throw new Error(started.error);
const status = await ck.waitForJob(started.id);
if (!status.success) throw new Error(status.error);
const crawlMs = performance.now() - at;
at = performance.now();
const mapped = await ck.map({ url, ...pattern });
if (!mapped.success) throw new Error(mapped.error);
const mapMs = performance.now() - at;
await ck.close();
const path = (u: string) => new URL(u).pathname;
const crawled = status.data.map((d) => path(d.metadata.sourceURL)).sort();
const links = mapped.links.map((l) => path(l.url)).sort();
process.stdout.write(`result ${JSON.stringify({ crawled, links, crawlMs, mapMs })}\n`);
