// What a crawl and a map decide to visit and list on a small localised docs site: non-ASCII and escaped paths,
// patterns, and map's search and limit.
import type { CrawlRequestInput, ErrorResponse, MapResponse } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { ok } from './helpers/crawl-site-run.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';

/** Path → the links of its page. The sitemap lists the section homes and two leaves, none of them a guide. */
const PAGES: Record<string, string[]> = {
  '/': ['/de/', '/en/'],
  '/de/': ['/de/über-uns', '/de/guide', '/de/straße'],
  '/en/': ['/en/release notes', '/en/guide', '/en/50%off-sale'],
  '/de/index.html': ['/de/über-uns', '/de/guide'],
  '/de/%C3%BCber-uns': [],
  '/de/guide': [],
  '/de/stra%C3%9Fe': [],
  '/en/50%off-sale': [],
  '/en/release%20notes': [],
  '/en/guide': [],
  '/v2/': ['/v2/guide', '/v1/'],
  '/v2/guide': [],
  '/v1/': [],
  // A manual whose sidebar links each page by its sections only, and an app's routes. Its sitemap lists its FAQ by a
  // section too.
  '/manual/': ['/manual/install#requirements', '/manual/install#steps', '/manual/config#top', '/manual/app#/settings'],
  '/manual/install': [],
  '/manual/config': [],
  '/manual/app': [],
  '/manual/faq': [],
  // A shop's category linking a product as Shopify's rails and search results and Google Shopping do.
  '/store/': [
    '/store/boot?pr_prod_strat=e5&amp;pr_rec_id=1a2&amp;pr_rec_pid=9&amp;pr_ref_pid=7&amp;pr_seq=uniform',
    '/store/boot?_pos=1&amp;_sid=3f2a&amp;_ss=r',
    '/store/boot?srsltid=AfmBOoq1',
    '/store/boot',
  ],
  '/store/boot': [],
  // A careers page linking a posting as a job board's ads do (Greenhouse's and Lever's source tags), and an embedded
  // board whose postings are one page told apart by `gh_jid`.
  '/careers/': [
    '/careers/42?gh_src=abc123',
    '/careers/42?lever-source=LinkedIn&amp;lever-origin=applied',
    '/careers/42',
    '/careers/board?gh_jid=7',
    '/careers/board?gh_jid=8',
  ],
  '/careers/42': [],
  '/careers/board': [],
};
/** Path → where it redirects: docs whose `latest` is a version. */
const REDIRECTS: Record<string, string> = { '/latest': '/v2/' };
const SITEMAP = ['/de/', '/en/', '/de/%C3%BCber-uns', '/en/release%20notes'];

function startScopeSite(): Promise<FixtureServer> {
  return startRouteSite({
    '/*'(_req, res, ctx) {
      const path = ctx.url.pathname;
      if (path === '/sitemap.xml' || path === '/manual/sitemap.xml') {
        const urls = (path === '/sitemap.xml' ? SITEMAP : ['/manual/faq#licence'])
          .map((p) => `<url><loc>${ctx.baseUrl}${p}</loc></url>`)
          .join('');
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`);
        return;
      }
      if (path.startsWith('/shop/')) {
        // A CMS that names its section as every page's canonical.
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        const links = path === '/shop/' ? '<a href="/shop/a">A</a> <a href="/shop/b">B</a>' : '';
        res.end(
          `<!doctype html><html><head><title>Shop ${path}</title><link rel="canonical" href="/shop/"></head>` +
            `<body><main><h1>Shop ${path}</h1><p>The product ${path} of the shop.</p>${links}</main></body></html>`,
        );
        return;
      }
      const to = REDIRECTS[path];
      if (to) return void res.writeHead(301, { location: to }).end();
      const links = PAGES[path];
      if (!links) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      sendPage(res, `Page ${path}`, links.map((l) => `<a href="${l}">${l}</a>`).join(' '));
    },
  });
}

const env = useFixtureEngine({ server: startScopeSite });
/** Crawls `path` of the site with `body` and returns the stored pages' paths, sorted. */
async function crawl(body: Omit<CrawlRequestInput, 'url'> & { url: string }): Promise<string[]> {
  const started = ok(
    await env.ck.crawl({ ...body, url: `${env.server.url}${body.url}`, scrapeOptions: { maxAge: 0 } }),
  );
  const status = ok(await env.ck.waitForJob(started.id));
  return status.data.map((d) => new URL(d.metadata.url ?? d.metadata.sourceURL).pathname).sort();
}

function links(value: MapResponse | ErrorResponse): string[] {
  if (!value.success) throw new Error(`unexpected error: ${value.error}`);
  return value.links.map((l) => new URL(l.url).pathname);
}

describe('path patterns on non-ASCII and escaped paths', () => {
  it('includePaths written with the letters a person reads match the encoded path', async () => {
    const pages = await crawl({ url: '/de/', sitemap: 'skip', includePaths: ['^/de/über'] });
    expect(pages).toEqual(['/de/%C3%BCber-uns']);
  });

  it('excludePaths with a space keeps the crawl off the escaped page', async () => {
    const pages = await crawl({ url: '/en/', sitemap: 'skip', excludePaths: ['release notes'] });
    expect(pages).toEqual(['/en/', '/en/50%off-sale', '/en/guide']);
    expect(env.server.requests.some((r) => r.path === '/en/release%20notes')).toBe(false);
  });
});

describe('a crawl that keeps no page', () => {
  it('for its includePaths says so, and why a path pattern misses the whole URL of regexOnFullURL', async () => {
    const run = async (body: Omit<CrawlRequestInput, 'url'>) => {
      const url = `${env.server.url}/store/`;
      const started = ok(await env.ck.crawl({ ...body, url, sitemap: 'skip', scrapeOptions: { maxAge: 0 } }));
      return ok(await env.ck.waitForJob(started.id));
    };
    const full = await run({
      crawlEntireDomain: true,
      includePaths: ['^/products/', '^/store/boot'],
      regexOnFullURL: true,
    });
    expect(full.data).toEqual([]);
    expect(full.warning).toContain(
      `No page was kept: the seed ${env.server.url}/store/ matches none of \`includePaths\` (it was read for its links only)`,
    );
    expect(full.warning).toContain('so `^/products/`, `^/store/boot` cannot match: drop the `^`');
    const path = await run({ includePaths: ['^/store/shoe'] });
    expect(path.warning).toContain('The patterns are tested on the path (`/store/`).');
    // The same patterns without the anchor find the product, and nothing is said.
    const fixed = await run({ crawlEntireDomain: true, includePaths: ['/store/boot'], regexOnFullURL: true });
    expect(fixed.data).toHaveLength(1);
    expect(fixed.warning).toBeUndefined();
  });
});

describe('the seed', () => {
  it('redirected into another directory of the site crawls that directory too', async () => {
    const pages = await crawl({ url: '/latest', sitemap: 'skip' });
    expect(pages).toEqual(['/v2/', '/v2/guide']);
  });
});

describe('links with a fragment', () => {
  it('to a place in a page crawl the page once, from a page or a sitemap; a route keeps its fragment', async () => {
    const url = `${env.server.url}/manual/`;
    const started = ok(await env.ck.crawl({ url, scrapeOptions: { maxAge: 0 } }));
    const status = ok(await env.ck.waitForJob(started.id));
    const pages = status.data.map((d) => d.metadata.sourceURL.slice(env.server.url.length)).sort();
    expect(pages).toEqual(['/manual/', '/manual/app#/settings', '/manual/config', '/manual/faq', '/manual/install']);
    const install = env.server.requests.filter((r) => r.path === '/manual/install');
    expect(install).toHaveLength(1);
  });
});

describe('the same page by many URLs', () => {
  it("a shop's product linked with recommendation, search and Google Shopping parameters is read once", async () => {
    const before = env.server.requests.length;
    const pages = await crawl({ url: '/store/', sitemap: 'skip' });
    expect(pages).toEqual(['/store/', '/store/boot']);
    expect(env.server.requests.slice(before).filter((r) => r.path.startsWith('/store/boot'))).toHaveLength(1);
  });

  it("a job posting linked with an applicant tracking system's source tags is read once; gh_jid stays", async () => {
    const before = env.server.requests.length;
    const pages = await crawl({ url: '/careers/', sitemap: 'skip' });
    // Before: /careers/42 three times, as `?gh_src=…` and `?lever-source=…&lever-origin=…` were pages of their own.
    expect(pages).toEqual(['/careers/', '/careers/42', '/careers/board', '/careers/board']);
    expect(env.server.requests.slice(before).filter((r) => r.path.startsWith('/careers/42'))).toHaveLength(1);
  });

  it('a canonical naming the section above every page folds none of them into it', async () => {
    const pages = await crawl({ url: '/shop/', sitemap: 'skip' });
    expect(pages).toEqual(['/shop/', '/shop/a', '/shop/b']);
  });
});

describe('map', () => {
  it('search ranks every page it finds, not only the first `limit` found', async () => {
    // The sitemap alone fills the limit with pages that are not guides; the guides are linked from its pages.
    const found = links(await env.ck.map({ url: env.server.url, search: 'guide', limit: 2 }));
    expect(found.sort()).toEqual(['/de/guide', '/en/guide']);
  });

  it('search reads terms of any script, and a link with a stray % does not break it', async () => {
    const street = links(await env.ck.map({ url: env.server.url, search: 'straße' }));
    expect(street).toEqual(['/de/stra%C3%9Fe']);
    const sale = links(await env.ck.map({ url: env.server.url, search: 'sale' }));
    expect(sale).toEqual(['/en/50%off-sale']);
  });

  it('of a page named like a file maps its directory, as a crawl from it does', async () => {
    const found = links(await env.ck.map({ url: `${env.server.url}/de/index.html`, sitemap: 'skip' }));
    expect(found.sort()).toEqual(['/de/%C3%BCber-uns', '/de/guide', '/de/index.html']);
  });

  it('lists only the pages includePaths and excludePaths admit, as a crawl would', async () => {
    const included = links(await env.ck.map({ url: env.server.url, includePaths: ['^/de/'] }));
    expect(included.sort()).toEqual(['/de', '/de/%C3%BCber-uns', '/de/guide', '/de/stra%C3%9Fe']);
    const excluded = links(await env.ck.map({ url: env.server.url, excludePaths: ['über', '^/en/'] }));
    expect(excluded.sort()).toEqual(['/', '/de', '/de/guide', '/de/stra%C3%9Fe']);
    // Links are judged as found (`/en/`, its slash kept), and followed only when admitted, as in a crawl.
    const pattern = '^http://127\\.0\\.0\\.1:\\d+/en/(guide)?$';
    const full = links(await env.ck.map({ url: env.server.url, regexOnFullURL: true, includePaths: [pattern] }));
    expect(full.sort()).toEqual(['/en', '/en/guide']);
  });

  it('refuses an invalid pattern, naming it', async () => {
    const refused = await env.ck.map({ url: env.server.url, excludePaths: ['^/de/(guide'] });
    expect(refused).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect((refused as ErrorResponse).error).toContain('/^/de/(guide/');
  });
});
