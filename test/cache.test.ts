/**
 * The page cache through the real `Crawlkit` against a real local server (reference §8, issue 5): reads, writes and
 * the cache key (persistence and maintenance: cache-persistence.test.ts). Every page of the `/cache/*` route carries
 * a serial unique to that fetch and the server counts fetches per path, so each test tells a hit from a miss by the
 * server's own log, not only by `metadata.cacheState`.
 */
import type { Crawlkit, ErrorResponse } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { doc, serialOf, sleep, useCacheSite } from './helpers/cache-site.ts';

let server: FixtureServer;
let ck: Crawlkit;
const { freshUrl, fetchesOf } = useCacheSite((started) => ({ server, ck } = started));

describe('cache reads and writes (reference §8)', () => {
  it('follows the reference scenario: storeInCache false, miss, hit with cachedAt, maxAge 1, maxAge 0, minAge', async () => {
    const { url, path } = freshUrl();
    const first = doc(await ck.scrape({ url, storeInCache: false }));
    expect(first.metadata.cacheState).toBe('miss');
    expect(first.metadata.cachedAt).toBeUndefined();

    const second = doc(await ck.scrape({ url }));
    expect(second.metadata.cacheState).toBe('miss');
    expect(fetchesOf(path)).toBe(2);

    const before = Date.now();
    const third = doc(await ck.scrape({ url }));
    expect(third.metadata.cacheState).toBe('hit');
    expect(fetchesOf(path)).toBe(2);
    expect(serialOf(third)).toBe(serialOf(second));
    const cachedAt = Date.parse(third.metadata.cachedAt!);
    expect(cachedAt).toBeLessThanOrEqual(before);
    expect(cachedAt).toBeGreaterThan(before - 10_000);
    expect(third.metadata.cachedAt).toBe(new Date(cachedAt).toISOString());
    // A hit is a full document: same content, its own scrape id, the sourceURL as sent this time.
    expect(third.markdown).toBe(second.markdown);
    expect(third.metadata.scrapeId).not.toBe(second.metadata.scrapeId);
    expect(third.metadata.statusCode).toBe(200);

    await sleep(5);
    const maxAge1 = doc(await ck.scrape({ url, maxAge: 1 }));
    expect(maxAge1.metadata.cacheState).toBe('miss');
    expect(fetchesOf(path)).toBe(3);

    const maxAge0 = doc(await ck.scrape({ url, maxAge: 0 }));
    expect(maxAge0.metadata.cacheState).toBeUndefined();
    expect(maxAge0.metadata.cachedAt).toBeUndefined();
    expect(fetchesOf(path)).toBe(4);

    // maxAge 0 still writes: the next default scrape is served what it fetched.
    const after0 = doc(await ck.scrape({ url }));
    expect(after0.metadata.cacheState).toBe('hit');
    expect(serialOf(after0)).toBe(serialOf(maxAge0));

    const tooYoung = await ck.scrape({ url, minAge: 60_000 });
    expect(tooYoung).toEqual({
      success: false,
      code: 'SCRAPE_NO_CACHED_DATA',
      error: 'No cached data available that meets the specified age requirements.',
    });
    expect(fetchesOf(path)).toBe(4);
  });

  it('minAge serves an old enough entry without fetching, and never fetches when none qualifies', async () => {
    const { url, path } = freshUrl();
    const none = await ck.scrape({ url, minAge: 1 });
    expect(none.success).toBe(false);
    expect((none as ErrorResponse).code).toBe('SCRAPE_NO_CACHED_DATA');
    expect(fetchesOf(path)).toBe(0);

    const stored = doc(await ck.scrape({ url }));
    await sleep(30);
    const old = doc(await ck.scrape({ url, minAge: 20 }));
    expect(old.metadata.cacheState).toBe('hit');
    expect(serialOf(old)).toBe(serialOf(stored));
    expect(fetchesOf(path)).toBe(1);
  });

  it('minAge with options that never read the cache is no cached data, naming them, never a fetch', async () => {
    const { url, path } = freshUrl();
    doc(await ck.scrape({ url }));
    await sleep(30);
    const refused = (await ck.scrape({ url, minAge: 20, headers: { 'x-secret': 'token-value' } })) as ErrorResponse;
    expect(refused).toMatchObject({ success: false, code: 'SCRAPE_NO_CACHED_DATA' });
    expect(refused.error).toMatch(/^No cached data available that meets the specified age requirements: /);
    expect(refused.error).toContain('headers (x-secret)');
    expect(refused.error).not.toContain('token-value');
    expect(fetchesOf(path)).toBe(1);
  });

  it('headers neither read nor write the cache', async () => {
    const { url, path } = freshUrl();
    const withHeaders = doc(await ck.scrape({ url, headers: { 'x-test': '1' } }));
    expect(withHeaders.metadata.cacheState).toBeUndefined();
    const plain = doc(await ck.scrape({ url }));
    expect(plain.metadata.cacheState).toBe('miss');
    const again = doc(await ck.scrape({ url, headers: { cookie: 'a=b' } }));
    expect(again.metadata.cacheState).toBeUndefined();
    expect(serialOf(again)).not.toBe(serialOf(plain));
    expect(fetchesOf(path)).toBe(3);
  });

  it('actions neither read nor write; the stealth proxy and branding do not read', async () => {
    const { url, path } = freshUrl();
    const withActions = doc(await ck.scrape({ url, actions: [{ type: 'wait', milliseconds: 1 }] }));
    expect(withActions.metadata.cacheState).toBeUndefined();
    expect(doc(await ck.scrape({ url })).metadata.cacheState).toBe('miss');
    const stealth = doc(await ck.scrape({ url, proxy: 'stealth' }));
    expect(stealth.metadata.cacheState).toBeUndefined();
    const branding = doc(await ck.scrape({ url, formats: ['branding'] }));
    expect(branding.metadata.cacheState).toBeUndefined();
    expect(fetchesOf(path)).toBe(4);
  });

  it('a screenshot with its own viewport or quality neither reads nor writes the cache', async () => {
    const { url, path } = freshUrl();
    const plain = { url, formats: ['markdown' as const, 'screenshot' as const] };
    const first = doc(await ck.scrape(plain));
    for (const shot of [{ viewport: { width: 800, height: 600 } }, { quality: 50 }]) {
      const own = doc(await ck.scrape({ url, formats: ['markdown', { type: 'screenshot', ...shot }] }));
      expect(own.metadata.cacheState).toBeUndefined();
    }
    // The cached entry is still the plain screenshot request's page.
    const again = doc(await ck.scrape(plain));
    expect(again.metadata.cacheState).toBe('hit');
    expect(serialOf(again)).toBe(serialOf(first));
    expect(fetchesOf(path)).toBe(3);
  });

  it('changeTracking never takes a cached copy by its age (it needs a fresh page; only a 304 confirms one)', async () => {
    const { url, path } = freshUrl();
    doc(await ck.scrape({ url }));
    const tracked = doc(await ck.scrape({ url, formats: ['markdown', 'changeTracking'] }));
    // Read for its validators only: this page has none, so it is fetched again.
    expect(tracked.metadata.cacheState).toBe('miss');
    expect(fetchesOf(path)).toBe(2);
  });

  it('a PDF page cap neither reads nor writes the cache', async () => {
    const { url, path } = freshUrl();
    doc(await ck.scrape({ url }));
    const capped = doc(await ck.scrape({ url, parsers: [{ type: 'pdf', maxPages: 2 }] }));
    expect(capped.metadata.cacheState).toBeUndefined();
    expect(fetchesOf(path)).toBe(2);
  });

  it('does not cache error pages', async () => {
    const { url, path } = freshUrl();
    const failing = `${url}?status=503`;
    expect(doc(await ck.scrape({ url: failing })).metadata.statusCode).toBe(503);
    const again = doc(await ck.scrape({ url: failing }));
    expect(again.metadata.cacheState).toBe('miss');
    expect(fetchesOf(path)).toBe(2);
  });
});

describe('the cache key', () => {
  it('serves any formats and extraction options from one entry', async () => {
    const { url, path } = freshUrl();
    const markdown = doc(await ck.scrape({ url, formats: ['markdown'] }));
    const html = doc(await ck.scrape({ url, formats: ['html', 'links', 'rawHtml'], onlyMainContent: false }));
    expect(html.metadata.cacheState).toBe('hit');
    expect(html.html).toContain('Navigation link');
    expect(html.rawHtml).toContain(`serial ${serialOf(markdown)}`);
    expect(html.links).toContain(`${server.url}/cache/other`);
    expect(html.markdown).toBeUndefined();
    const main = doc(await ck.scrape({ url, formats: ['markdown'], excludeTags: ['h1'] }));
    expect(main.metadata.cacheState).toBe('hit');
    expect(main.markdown).not.toContain('Heading of');
    expect(main.markdown).not.toContain('Navigation link');
    expect(main.metadata.title).toBe(`Cached ${path}`);
    expect(fetchesOf(path)).toBe(1);
  });

  it('each hit is a document of its own: changing one changes no later hit', async () => {
    const { url, path } = freshUrl();
    const first = doc(await ck.scrape({ url, formats: ['markdown', 'links'] }));
    const links = [...first.links!];
    first.links!.length = 0;
    first.metadata.title = 'changed';
    const hit = doc(await ck.scrape({ url, formats: ['markdown', 'links'] }));
    expect(hit.metadata.cacheState).toBe('hit');
    expect(hit.links).toEqual(links);
    hit.links!.push('https://changed.example/');
    const again = doc(await ck.scrape({ url, formats: ['markdown', 'links'] }));
    expect(again.links).toEqual(links);
    expect(again.metadata.title).toBe(`Cached ${path}`);
    expect(again.metadata.scrapeId).not.toBe(hit.metadata.scrapeId);
  });

  it('keys mobile, blockAds, waitFor, location country and screenshot kind; languages in any order', async () => {
    const { url, path } = freshUrl();
    const variants: Record<string, unknown>[] = [
      {},
      { mobile: true },
      { blockAds: false },
      { waitFor: 100 },
      { location: { country: 'DE' } },
      { location: { country: 'DE', languages: ['de-DE', 'en-US'] } },
      { formats: ['markdown', 'screenshot'] },
      { formats: ['markdown', { type: 'screenshot', fullPage: true }] },
    ];
    for (const [i, variant] of variants.entries()) {
      const first = doc(await ck.scrape({ url, ...variant }));
      expect(first.metadata.cacheState, JSON.stringify(variant)).toBe('miss');
      expect(fetchesOf(path)).toBe(i + 1);
    }
    for (const variant of variants) {
      const again = doc(await ck.scrape({ url, ...variant }));
      expect(again.metadata.cacheState, JSON.stringify(variant)).toBe('hit');
    }
    const reordered = doc(await ck.scrape({ url, location: { country: 'DE', languages: ['en-US', 'de-DE'] } }));
    expect(reordered.metadata.cacheState).toBe('hit');
    // The URL is normalised: a fragment is the same page.
    expect(doc(await ck.scrape({ url: `${url}#section` })).metadata.cacheState).toBe('hit');
    expect(fetchesOf(path)).toBe(variants.length);
  });
});
