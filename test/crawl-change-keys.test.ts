/**
 * A crawl's change feed keys a page by the URL it ends at. A crawl stores a page reached under two URLs (a redirect
 * and its target) once, under the URL it fetched first, and which one that is changes from run to run with the site's
 * links and the order of the responses. Keyed by the URL asked for, an unchanged page was `new` under one URL and
 * `removed` under the other.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Crawlkit, type Document } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: Server;
let base: string;
let ck: Crawlkit;
/** Where the home page links the guide: its own URL, or an old URL that redirects to it. */
let guideLink = '/guide';

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(page('Home', `<p>The manual.</p><a href="${guideLink}">Guide</a> <a href="/faq">FAQ</a>`));
    } else if (path === '/old-guide') {
      res.writeHead(301, { location: '/guide' });
      res.end();
    } else if (path === '/guide' || path === '/faq') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(page(path.slice(1), `<p>The text of ${path}, unchanged between the crawls.</p>`));
    } else {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end(page('Not found', '<p>Nothing here.</p>'));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await new Promise((resolve) => server.close(resolve));
});

async function crawl(): Promise<{ id: string; documents: Document[] }> {
  const started = await ck.crawl({ url: `${base}/`, tag: 'manual', sitemap: 'skip' });
  if (!started.success) throw new Error(`crawl refused: ${started.error}`);
  const done = await ck.waitForJob(started.id);
  if (!done.success || done.status !== 'completed') throw new Error(`crawl ended ${JSON.stringify(done)}`);
  return { id: started.id, documents: done.data };
}

const changes = (documents: Document[]) =>
  Object.fromEntries(
    documents.map((d) => [
      `${new URL(d.metadata.sourceURL).pathname} -> ${new URL(d.metadata.url!).pathname}`,
      d.metadata.crawlChange,
    ]),
  );

async function removed(id: string): Promise<string[]> {
  const feed = await ck.getCrawlChanges(id);
  if (!feed.success) throw new Error(`changes refused: ${feed.error}`);
  return feed.data.filter((entry) => entry.change === 'removed').map((entry) => new URL(entry.url).pathname);
}

describe('the change feed of a page reached under another URL', () => {
  it('is the same page whether the crawl reached it by its URL or by a redirect to it', async () => {
    guideLink = '/guide';
    const first = await crawl();
    expect(changes(first.documents)).toEqual({ '/ -> /': 'new', '/guide -> /guide': 'new', '/faq -> /faq': 'new' });

    // The home page now links the old URL, which redirects to the same, unchanged guide.
    guideLink = '/old-guide';
    const second = await crawl();
    expect(changes(second.documents)).toEqual({
      '/ -> /': 'changed',
      '/old-guide -> /guide': 'same',
      '/faq -> /faq': 'same',
    });
    expect(await removed(second.id)).toEqual([]);

    // And back.
    guideLink = '/guide';
    const third = await crawl();
    expect(changes(third.documents)).toEqual({
      '/ -> /': 'changed',
      '/guide -> /guide': 'same',
      '/faq -> /faq': 'same',
    });
    expect(await removed(third.id)).toEqual([]);
  });
});
