/**
 * `node --import ./test/helpers/built-hooks.ts test/helpers/library-silent-child.ts <site url>`: the library as an app
 * uses it, `startServer()` over a `Crawlkit`, neither given a logger, answering a scrape, a failed scrape (500), a
 * 404 and a crawl to its end. Prints `result <JSON>` with the statuses: anything else on stdout or stderr is what the
 * library wrote on its own.
 */
import { startServer } from '@crawlkit/server';
import { Crawlkit } from 'crawlkit';

const site = process.argv[2]!;
const ck = new Crawlkit({ store: 'memory', engine: 'http' });
const server = await startServer({ port: 0, crawlkit: ck });
const post = async (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const statuses = [
  (await post('/v2/scrape', { url: `${site}/articles/first-post.html` })).status,
  (await post('/v2/scrape', { url: 'http://127.0.0.1:1/' })).status,
  (await fetch(`${server.url}/v2/nope`)).status,
];
const crawl = (await (await post('/v2/crawl', { url: `${site}/`, limit: 2 })).json()) as { id: string };
const ended = await ck.waitForJob(crawl.id, { documents: false });
await server.close();
await ck.close();
process.stdout.write(`result ${JSON.stringify({ statuses, crawl: ended.success ? ended.status : ended.code })}\n`);
