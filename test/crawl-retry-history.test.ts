/**
 * The `changeTracking` format in a crawl whose site asks it to come back later: a page that answers 429 (or 503) is
 * fetched again after its `Retry-After`, and the refusal is not the page. It is neither compared nor kept in the
 * page's history, so the page that comes after is compared with the page's last real scrape.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Crawlkit, type Document } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: Server;
let base: string;
let ck: Crawlkit;
/** Requests to /busy in the current crawl: the first of each crawl is refused. */
let busyRequests = 0;

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(page('Home', '<p>The shop.</p><a href="/busy">Busy page</a>'));
    } else if (path === '/busy' && ++busyRequests === 1) {
      res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '0' });
      res.end('Too many requests, slow down.');
    } else if (path === '/busy') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(page('Busy', '<p>The page a busy server answers on the second try.</p>'));
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not found');
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

async function busyPage(): Promise<Document> {
  busyRequests = 0;
  const started = await ck.crawl({
    url: `${base}/`,
    sitemap: 'skip',
    scrapeOptions: { formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'] }] },
  });
  if (!started.success) throw new Error(`crawl refused: ${started.error}`);
  const done = await ck.waitForJob(started.id);
  if (!done.success || done.status !== 'completed') throw new Error(`crawl ended ${JSON.stringify(done)}`);
  expect(busyRequests).toBe(2);
  return done.data.find((d) => d.metadata.sourceURL === `${base}/busy`)!;
}

describe('change tracking of a page the site refused once with 429', () => {
  it('compares the page fetched on the retry with its last real scrape', async () => {
    const first = await busyPage();
    expect(first.metadata.statusCode).toBe(200);
    expect(first.changeTracking).toEqual({ previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' });

    const second = await busyPage();
    expect(second.changeTracking).toMatchObject({ changeStatus: 'same' });
    expect(second.changeTracking?.diff).toBeUndefined();
  });
});
