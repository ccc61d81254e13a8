/**
 * A crawl folds a page whose `rel=canonical` names another page of the crawl into that page. A `sitemap: 'only'`
 * crawl, which collects no links, did not read the canonical and stored both: an audit of the sitemap's pages got
 * `/products?page=2` beside `/products`, where a crawl that follows links got one.
 */
import type { ServerResponse } from 'node:http';

import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { startRouteSite } from './helpers/route-site.ts';

let site: FixtureServer;
let ck: Crawlkit;

const products = (_req: unknown, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    '<!doctype html><html><head><title>Products</title><link rel="canonical" href="/products"></head>' +
      '<body><main><h1>Products</h1><p>Every product of the shop, on one page with its reviews.</p></main></body></html>',
  );
};

beforeAll(async () => {
  site = await startRouteSite({
    '/sitemap.xml': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      const urls = ['/products', '/products?page=2', '/products?sort=price'];
      res.end(
        '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
          urls.map((u) => `<url><loc>${site.url}${u}</loc></url>`).join('') +
          '</urlset>',
      );
    },
    '/products': products,
  });
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await site.close();
});

async function crawledPaths(sitemap: 'only' | 'include'): Promise<string[]> {
  const crawl = await ck.crawl({ url: `${site.url}/products`, sitemap, scrapeOptions: { formats: ['links'] } });
  if (!crawl.success) throw new Error(crawl.error);
  const result = await ck.waitForJob(crawl.id);
  if (!result.success) throw new Error(result.error);
  return result.data.map((d) => new URL(d.metadata.sourceURL).pathname + new URL(d.metadata.sourceURL).search);
}

describe("a sitemap: 'only' crawl and rel=canonical", () => {
  it('folds the pages that name another page of the crawl as their canonical, as a crawl following links does', async () => {
    // One document: the three URLs serve the same text, fetched together; the first fetched is kept (h67: a copy is
    // folded by its content, whichever of the two was fetched first).
    const copies = ['/products', '/products?page=2', '/products?sort=price'];
    for (const mode of ['include', 'only'] as const) {
      const paths = await crawledPaths(mode);
      expect(paths).toHaveLength(1);
      expect(copies).toContain(paths[0]);
    }
  });
});
