import { type ErrorResponse, type MapRequestInput, type MapResponse } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { startCrawlSite, testHostsLookup } from '../fixtures/crawl-site/harness.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';

const env = useFixtureEngine({
  server: startCrawlSite,
  crawlkit: { store: 'memory', engine: 'http', http: { lookup: testHostsLookup } },
});

function ok(value: MapResponse | ErrorResponse): MapResponse {
  if (!value.success) throw new Error(`unexpected error: ${value.error}`);
  return value;
}

/** Maps the fixture site (`url` is a path on `site.test` unless absolute); returns the response and link labels. */
async function map(body: Omit<MapRequestInput, 'url'> & { url: string }) {
  const url = body.url.startsWith('http') ? body.url : env.server.url(body.url);
  const response = ok(await env.ck.map({ ...body, url }));
  return { response, labels: response.links.map((l) => env.server.label(l.url)) };
}

const sorted = (values: string[]) => [...values].sort();

describe('map', () => {
  it('sitemap only: every sitemap URL (robots.txt Sitemap line, index, gzip, www host), cleaned', async () => {
    const { labels } = await map({ url: '/', sitemap: 'only' });
    expect(sorted(labels)).toEqual(
      sorted([
        '/',
        '/about',
        '/only-in-sitemap-1',
        '/only-in-sitemap-2',
        'www.site.test/only-in-sitemap-3',
        '/private/hidden',
        '/docs/a',
        '/docs/sitemap-only',
      ]),
    );
  });

  it('sitemap only with a limit returns exactly that many links (item 44)', async () => {
    const { response } = await map({ url: '/', sitemap: 'only', limit: 3 });
    expect(response.links).toHaveLength(3);
  });

  it('keeps to the input path and adds sitemap and linked URLs with titles', async () => {
    const { response, labels } = await map({ url: '/docs' });
    expect(sorted(labels)).toEqual(['/docs', '/docs/a', '/docs/b', '/docs/c/deep', '/docs/sitemap-only']);
    const docA = response.links.find((l) => l.url === env.server.url('/docs/a'))!;
    expect(docA.title).toBe('Doc A');
    expect(docA.description).toBe('Doc A on the crawl fixture site');
  });

  it('sitemap skip uses links only', async () => {
    const { labels } = await map({ url: '/docs', sitemap: 'skip' });
    expect(sorted(labels)).toEqual(['/docs', '/docs/a', '/docs/b', '/docs/c/deep']);
  });

  it('includeSubdomains: false keeps to the input host', async () => {
    const blog = env.server.url('/', 'blog.site.test');
    const only = await map({ url: blog, sitemap: 'skip', includeSubdomains: false });
    expect(sorted(only.labels)).toEqual(['blog.site.test/', 'blog.site.test/post-a', 'blog.site.test/post-b']);
    const all = await map({ url: blog, sitemap: 'skip', limit: 20 });
    expect(all.labels).toEqual(expect.arrayContaining(['blog.site.test/post-a', '/about']));
    expect(all.labels.some((l) => l.startsWith('other.test'))).toBe(false);
  });

  it('ignoreQueryParameters (default) strips queries; false keeps each query variant', async () => {
    const stripped = await map({ url: '/', sitemap: 'skip', search: 'products' });
    expect(stripped.labels).toEqual(['/products']);
    const kept = await map({ url: '/', sitemap: 'skip', search: 'products', ignoreQueryParameters: false });
    expect(kept.labels).toEqual(expect.arrayContaining(['/products?id=1&color=red', '/products?id=2']));
    expect(kept.labels.every((l) => l.startsWith('/products?'))).toBe(true);
  });

  it('search keeps the matching links, best first', async () => {
    const { response, labels } = await map({ url: '/', search: 'doc' });
    expect(labels.length).toBeGreaterThan(3);
    for (const link of response.links) {
      expect(`${link.url} ${link.title ?? ''} ${link.description ?? ''}`.toLowerCase()).toContain('doc');
    }
    expect(labels).toEqual(expect.arrayContaining(['/docs', '/docs/a', '/docs/sitemap-only']));
  });

  it('warns when at most one result is found for a non-root URL', async () => {
    const { response, labels } = await map({ url: '/docsearch', sitemap: 'skip' });
    expect(labels).toEqual(['/docsearch']);
    expect(response.warning).toBe(
      `Only 1 result(s) found. For broader coverage, try mapping the base domain: ${env.server.url('').replace(/\/$/, '')}`,
    );
  });

  it('follows a redirect of the input to another domain and maps there (item 44)', async () => {
    const { response } = await map({ url: '/away' });
    expect(response.links.length).toBeGreaterThan(0);
    for (const link of response.links) expect(new URL(link.url).hostname).toBe('other.test');
  });

  it('times out with MAP_TIMEOUT (item 44)', async () => {
    const response = await env.ck.map({ url: env.server.url('/'), timeout: 1 });
    expect(response.success).toBe(false);
    expect(response).toMatchObject({ code: 'MAP_TIMEOUT' });
    expect((response as ErrorResponse).error).toContain('The map operation timed out');
    // what to fix: the timeout it ran out of, and the option that sets it
    expect((response as ErrorResponse).error).toContain('timeout of 1 ms. Raise `timeout` (--timeout');
  });

  it('never fetches robots-blocked-only or external pages to list links', async () => {
    const from = env.server.hits.length;
    await map({ url: '/docs' });
    const hosts = new Set(env.server.hits.slice(from).map((h) => h.host));
    expect(hosts.has('other.test')).toBe(false);
  });
});
