// A paged listing that names its next page only in `<link rel="next">` (a shop's category with a "Load more" button):
// the crawl follows it as it follows an `<a href>`, under every scope rule, and map reads it; the `links` format stays
// upstream's.
import type { CrawlRequestInput } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { ok } from './helpers/crawl-site-run.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { startRouteSite } from './helpers/route-site.ts';

/** Category → its number of pages (two products on each). */
const CATEGORIES: Record<string, number> = { bags: 4, hats: 3, far: 2, shoes: 3 };
/** Categories paged by path (`/collections/shoes/page/2`), not by query (`/collections/bags?page=2`). */
const PATH_PAGED = new Set(['shoes']);

function startShop(): Promise<FixtureServer> {
  return startRouteSite({
    '/robots.txt': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: *\nDisallow: /collections/hats?page=3\n');
    },
    '/*'(_req, res, ctx) {
      const path = ctx.url.pathname;
      const html = (head: string, body: string) =>
        `<!doctype html><html><head><title>${path}</title>${head}</head><body><main>${body}</main></body></html>`;
      const product = /^\/products\/(\w+)-(\d+)$/.exec(path);
      if (product) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(html('', `<h1>${product[1]} ${product[2]}</h1><p>A product of the shop, $19.00.</p>`));
        return;
      }
      const [, category, pathPage] = /^\/collections\/(\w+)(?:\/page\/(\d+))?$/.exec(path) ?? [];
      const pages = category === undefined ? undefined : CATEGORIES[category];
      if (category === undefined || pages === undefined) return void res.writeHead(404).end('not found');
      const page = Number(pathPage ?? ctx.url.searchParams.get('page') ?? '1');
      const pageUrl = (n: number) =>
        PATH_PAGED.has(category) ? `/collections/${category}/page/${n}` : `/collections/${category}?page=${n}`;
      // "far" names a next page on another host
      const origin = category === 'far' ? ctx.baseUrl.replace('127.0.0.1', 'localhost') : '';
      const next = page < pages ? `<link rel="next" href="${origin}${pageUrl(page + 1)}">` : '';
      const items = [1, 2].map((i) => `/products/${category}-${(page - 1) * 2 + i}`);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        html(
          `<link rel="canonical" href="${page > 1 ? pageUrl(page) : `/collections/${category}`}">${next}`,
          `<h1>${category}, page ${page}</h1><ul>${items.map((p) => `<li><a href="${p}">${p}</a></li>`).join('')}</ul>` +
            '<button type="button" class="load-more">Load more</button>',
        ),
      );
    },
  });
}

const env = useFixtureEngine({ server: startShop });

/** Crawls a category with `body` and returns the stored pages' paths and queries, sorted, and the status. */
async function crawl(category: string, body: Omit<CrawlRequestInput, 'url'> = {}) {
  const url = `${env.server.url}/collections/${category}`;
  const started = ok(
    await env.ck.crawl({ crawlEntireDomain: true, sitemap: 'skip', ...body, url, scrapeOptions: { maxAge: 0 } }),
  );
  const status = ok(await env.ck.waitForJob(started.id));
  const pages = status.data.map((d) => {
    const at = new URL(d.metadata.url ?? d.metadata.sourceURL);
    return at.pathname + at.search;
  });
  return { pages: pages.sort(), status, id: started.id };
}

const categoryPages = (pages: string[]) => pages.filter((p) => p.startsWith('/collections/'));

describe('<link rel="next">', () => {
  it('is followed: a category whose pages 2..N are linked only by it is crawled to the end', async () => {
    const { pages } = await crawl('bags');
    expect(categoryPages(pages)).toEqual([
      '/collections/bags',
      '/collections/bags?page=2',
      '/collections/bags?page=3',
      '/collections/bags?page=4',
    ]);
    expect(pages.filter((p) => p.startsWith('/products/'))).toHaveLength(8);
  });

  it('is a discovered link under every scope rule: patterns, depth, limit, robots.txt, other hosts', async () => {
    const excluded = await crawl('bags', { excludePaths: ['page=3'], regexOnFullURL: true });
    expect(categoryPages(excluded.pages)).toEqual(['/collections/bags', '/collections/bags?page=2']);
    // the seed's links are depth 1; the pages they lead to have theirs at depth 2
    const shallow = await crawl('bags', { maxDiscoveryDepth: 1 });
    expect(categoryPages(shallow.pages)).toEqual(['/collections/bags', '/collections/bags?page=2']);
    expect(shallow.pages).toHaveLength(4);
    const limited = await crawl('bags', { limit: 3 });
    expect(limited.pages).toHaveLength(3);
    const robots = await crawl('hats');
    expect(categoryPages(robots.pages)).toEqual(['/collections/hats', '/collections/hats?page=2']);
    const errors = await env.ck.getCrawlErrors(robots.id);
    expect('robotsBlocked' in errors && errors.robotsBlocked).toEqual([`${env.server.url}/collections/hats?page=3`]);
    const far = await crawl('far');
    expect(categoryPages(far.pages)).toEqual(['/collections/far']);
    expect(far.status.data).toHaveLength(3);
  });

  it('is read by map as crawl reads it: a category paged by it alone is mapped to the end', async () => {
    const mapped = ok(await env.ck.map({ url: `${env.server.url}/collections/shoes`, sitemap: 'skip' }));
    const paths = mapped.links.map((l) => {
      const at = new URL(l.url);
      return at.pathname + at.search;
    });
    expect(categoryPages(paths).sort()).toEqual([
      '/collections/shoes',
      '/collections/shoes/page/2',
      '/collections/shoes/page/3',
    ]);
  });

  it('is read by map through a query-paged category when `ignoreQueryParameters` is false; once by default', async () => {
    const mapPaths = async (ignoreQueryParameters?: boolean) => {
      const url = `${env.server.url}/collections/bags`;
      const mapped = ok(
        await env.ck.map({
          url,
          sitemap: 'skip',
          ...(ignoreQueryParameters !== undefined ? { ignoreQueryParameters } : {}),
        }),
      );
      // the products are outside the category's path (`filterByPath`): the category's pages are listed
      return mapped.links.map((l) => new URL(l.url).pathname + new URL(l.url).search).sort();
    };
    const kept = await mapPaths(false);
    expect(categoryPages(kept)).toEqual([
      '/collections/bags',
      '/collections/bags?page=2',
      '/collections/bags?page=3',
      '/collections/bags?page=4',
    ]);
    // the default strips `?page=N`: the pages are the category's one URL, visited once
    const folded = await mapPaths();
    expect(folded).toEqual(['/collections/bags']);
  });

  it('is not in the links format, which is the cleaned content’s <a href> as upstream’s', async () => {
    const page = ok(await env.ck.scrape({ url: `${env.server.url}/collections/bags`, formats: ['links'], maxAge: 0 }));
    expect(page.data.links).toEqual([`${env.server.url}/products/bags-1`, `${env.server.url}/products/bags-2`]);
  });
});
