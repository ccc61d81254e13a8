/**
 * `lockdown` (issue 36): pages served from the page cache only, with no network at all. The fixture server counts
 * the TCP connections it accepts, so "no socket" is the server's own count, not a flag of ours.
 */
import { Crawlkit, type ErrorResponse, type ScrapeResponse } from 'crawlkit';
import { createMemoryStore } from '@crawlkit/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startCrawlSite, testHostsLookup, type CrawlSiteServer } from '../fixtures/crawl-site/harness.ts';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';

let server: FixtureServer;
let site: CrawlSiteServer;
let ck: Crawlkit;

beforeAll(async () => {
  [server, site] = await Promise.all([startFixtureServer(), startCrawlSite()]);
  ck = new Crawlkit({ store: 'memory', engine: 'http', http: { lookup: testHostsLookup } });
});

afterAll(async () => {
  await ck.close();
  await Promise.all([server.close(), site.close()]);
});

const url = (path: string) => `${server.url}${path}`;

describe('lockdown', () => {
  it('serves a cached page at any age, opening no socket, and bills 4 more', async () => {
    const first = (await ck.scrape({ url: url('/articles/first-post.html') })) as ScrapeResponse;
    expect(first.success).toBe(true);
    // Older than the next request's maxAge: a normal scrape would fetch it again.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const before = server.connections;
    const locked = await ck.scrape({ url: url('/articles/first-post.html'), lockdown: true, maxAge: 1 });
    expect(locked).toMatchObject({ success: true, data: { metadata: { cacheState: 'hit', creditsUsed: 5 } } });
    if (locked.success) expect(locked.data.markdown).toBe(first.data.markdown);
    expect(server.connections).toBe(before);
  });

  it('answers a page the cache does not hold with SCRAPE_LOCKDOWN_CACHE_MISS (404), opening no socket', async () => {
    const before = server.connections;
    const missing = (await ck.scrape({ url: url('/docs/'), lockdown: true })) as ErrorResponse;
    expect(missing).toMatchObject({ success: false, code: 'SCRAPE_LOCKDOWN_CACHE_MISS' });
    expect(missing.error).toMatch(/no copy of it/);
    // Options that never read the cache say so.
    const withHeaders = (await ck.scrape({
      url: url('/articles/first-post.html'),
      lockdown: true,
      headers: { cookie: 'a=1' },
    })) as ErrorResponse;
    expect(withHeaders).toMatchObject({ success: false, code: 'SCRAPE_LOCKDOWN_CACHE_MISS' });
    expect(withHeaders.error).toMatch(/never read the page cache: headers \(cookie\)\. Drop them, or drop lockdown\./);
    expect(server.connections).toBe(before);
  });

  it('names the options of the copies the cache holds of the page when none is for these options', async () => {
    const page = url('/articles/inline-images.html');
    expect(await ck.scrape({ url: page, mobile: true, waitFor: 50 })).toMatchObject({ success: true });
    expect(await ck.scrape({ url: page, formats: ['markdown', 'screenshot'] })).toMatchObject({ success: true });
    const before = server.connections;
    const missed = (await ck.scrape({ url: page, lockdown: true })) as ErrorResponse;
    expect(missed).toMatchObject({ success: false, code: 'SCRAPE_LOCKDOWN_CACHE_MISS' });
    expect(missed.error).toContain('holds no copy of it for these options (mobile: false, waitFor: 0, no screenshot)');
    expect(missed.error).toContain('mobile: true, waitFor: 50');
    expect(missed.error).toContain('; a screenshot');
    expect(server.connections).toBe(before);
    // Asked as a copy was made, it is served.
    const served = await ck.scrape({ url: page, lockdown: true, mobile: true, waitFor: 50 });
    expect(served).toMatchObject({ success: true, data: { metadata: { cacheState: 'hit' } } });
  });

  it('says a copy fetched over HTTP without the browser asked for is one only the http engine serves', async () => {
    const shared = createMemoryStore();
    const overHttp = new Crawlkit({ store: shared, engine: 'http' });
    const withBrowser = new Crawlkit({ store: shared, engine: 'auto' });
    try {
      const page = url('/articles/first-post.html');
      expect(await overHttp.scrape({ url: page, mobile: true })).toMatchObject({ success: true });
      const missed = (await withBrowser.scrape({ url: page, mobile: true, lockdown: true })) as ErrorResponse;
      expect(missed).toMatchObject({ success: false, code: 'SCRAPE_LOCKDOWN_CACHE_MISS' });
      expect(missed.error).toContain('fetched over HTTP without what this request asks of the browser (mobile)');
    } finally {
      await Promise.all([overHttp.close(), withBrowser.close()]);
    }
  });

  it('crawls what the cache holds, fetching neither pages nor robots.txt nor sitemaps', async () => {
    const live = await ck.waitForJob(((await ck.crawl({ url: site.url('/'), limit: 8 })) as { id: string }).id);
    expect(live).toMatchObject({ success: true, status: 'completed' });
    const livePages = (live as { data: { metadata: { sourceURL: string } }[] }).data.map((d) => d.metadata.sourceURL);
    expect(livePages.length).toBeGreaterThan(1);

    const before = site.server.connections;
    const hits = site.hits.length;
    const started = (await ck.crawl({ url: site.url('/'), limit: 8, scrapeOptions: { lockdown: true } })) as {
      id: string;
    };
    const offline = await ck.waitForJob(started.id);
    expect(offline).toMatchObject({ success: true, status: 'completed' });
    const offlinePages = (offline as { data: { metadata: { sourceURL: string; cacheState?: string } }[] }).data;
    expect(offlinePages.every((d) => d.metadata.cacheState === 'hit')).toBe(true);
    // The links of the cached pages lead where the live crawl went (its sitemap-only pages aside).
    const offlineUrls = new Set(offlinePages.map((d) => d.metadata.sourceURL));
    expect(offlineUrls.size).toBeGreaterThan(1);
    for (const page of offlineUrls) expect(livePages).toContain(page);
    expect(site.server.connections).toBe(before);
    expect(site.hits.length).toBe(hits);
  });
});
