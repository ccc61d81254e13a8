// `store: 'memory'` in a long-running process: the page cache holds to `cache.maxBytes` like the on-disk one, so a
// service that scrapes all day keeps a bounded cache in its heap.
import { Crawlkit } from 'crawlkit';
import { afterAll, expect, it } from 'vitest';

import { startFixtureServer } from '../fixtures/server.ts';
import { data } from './helpers/scrape.ts';

const site = await startFixtureServer({
  routes: {
    // a page of about 10 KB, another at each address
    '/cap/*': (_req, res, { url }) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<html><body><main><p>${`${url.pathname} holds some words. `.repeat(400)}</p></main></body></html>`);
    },
  },
});
afterAll(() => site.close());

it('evicts the oldest pages of a memory store past cache.maxBytes', async () => {
  const ck = new Crawlkit({ store: 'memory', engine: 'http', cache: { maxBytes: 64 * 1024 } });
  try {
    const first = `${site.url}/cap/first`;
    data(await ck.scrape({ url: first }));
    for (let i = 0; i < 20; i++) data(await ck.scrape({ url: `${site.url}/cap/${i}` }));
    // 20 pages of 10 KB later, the first page is out of a 64 KB cache: it is fetched again
    data(await ck.scrape({ url: first }));
    expect(site.requests.filter((r) => r.path === '/cap/first')).toHaveLength(2);
  } finally {
    await ck.close();
  }
});
