import { type ErrorResponse } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { data } from './helpers/scrape.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';

const env = useFixtureEngine({ crawlkit: (dir) => ({ storeDir: dir, engine: 'http' }) });

describe('scrape over HTTP', () => {
  it('returns the main content as markdown with metadata by default', async () => {
    const url = `${env.server.url}/articles/first-post.html`;
    const doc = data(await env.ck.scrape({ url }));
    expect(Object.keys(doc).sort()).toEqual(['markdown', 'metadata']);
    expect(doc.markdown).toContain('# Sharpening a Hand Plane');
    expect(doc.markdown).toContain('micro-bevel');
    expect(doc.markdown).not.toMatch(/Accept all cookies|All rights reserved|Newsletter/);
    expect(doc.metadata).toMatchObject({
      title: 'Sharpening a Hand Plane | Acme Field Notes',
      description: 'How to sharpen a hand plane iron in five steps.',
      language: 'en',
      sourceURL: url,
      url,
      statusCode: 200,
      contentType: 'text/html',
      ogTitle: 'Sharpening a Hand Plane',
      proxyUsed: 'basic',
      creditsUsed: 1,
    });
    expect(doc.metadata.scrapeId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('returns exactly the formats asked for', async () => {
    const doc = data(
      await env.ck.scrape({
        url: `${env.server.url}/articles/first-post.html`,
        formats: ['html', 'rawHtml', 'links', 'images'],
        maxAge: 0,
      }),
    );
    expect(Object.keys(doc).sort()).toEqual(['html', 'images', 'links', 'metadata', 'rawHtml']);
    expect(doc.rawHtml).toContain('<script>window.analytics');
    expect(doc.html).not.toContain('<script');
    expect(doc.links).toContain(`${env.server.url}/docs/getting-started.html`);
    expect(doc.images).toContain(`${env.server.url}/img/plane-1200.jpg`);
  });

  it('returns the attributes format from the whole page, navigation included, and none for a page that is not HTML', async () => {
    const selectors = [
      { selector: 'nav.main-nav a', attribute: 'href' },
      { selector: 'img[srcset]', attribute: 'ALT' },
      { selector: 'div[', attribute: 'id' },
    ];
    const doc = data(
      await env.ck.scrape({
        url: `${env.server.url}/articles/first-post.html`,
        formats: [{ type: 'attributes', selectors }],
      }),
    );
    expect(doc.attributes).toEqual([
      {
        selector: 'nav.main-nav a',
        attribute: 'href',
        values: ['/', '/articles/', '/docs/getting-started.html', '/forum/thread.html', '/products/widget.html'],
      },
      { selector: 'img[srcset]', attribute: 'ALT', values: ['A freshly sharpened plane iron'] },
      { selector: 'div[', attribute: 'id', values: [] },
    ]);
    expect(doc.warning).toMatch(/div\[/);
    expect(doc.markdown).toBeUndefined();
    const json = data(
      await env.ck.scrape({ url: `${env.server.url}/api/data.json`, formats: [{ type: 'attributes', selectors }] }),
    );
    expect(json.attributes?.map((a) => a.values)).toEqual([[], [], []]);
  });

  it('keeps the sourceURL exactly as sent and reports the URL after redirects', async () => {
    const sent = `${env.server.url}/redirect/chain?pagewanted=all&et_blog`;
    const doc = data(await env.ck.scrape({ url: sent, maxAge: 0 }));
    expect(doc.metadata.sourceURL).toBe(sent);
    expect(doc.metadata.url).toBe(`${env.server.url}/articles/first-post.html`);
  });

  it('answers a 404 page as a success with its status code', async () => {
    const doc = data(await env.ck.scrape({ url: `${env.server.url}/missing-page`, maxAge: 0 }));
    expect(doc.metadata.statusCode).toBe(404);
    expect(doc.markdown).toContain('Page not found');
  });

  it('turns JSON into a fenced block and keeps the raw JSON', async () => {
    const url = `${env.server.url}/api/data.json`;
    const doc = data(await env.ck.scrape({ url, formats: ['markdown', 'rawHtml'], maxAge: 0 }));
    expect(doc.markdown).toMatch(/^```json\n/);
    expect(JSON.parse(doc.rawHtml!)).toMatchObject({ name: 'crawlkit' });
  });

  it('passes text/plain through', async () => {
    const doc = data(await env.ck.scrape({ url: `${env.server.url}/plain.txt`, maxAge: 0 }));
    expect(doc.markdown).toBe('Just plain text.\nSecond line.\n');
  });

  it('parses PDFs per page, or returns them base64 with parsers: []', async () => {
    const parsed = data(await env.ck.scrape({ url: `${env.server.url}/files/manual.pdf`, maxAge: 0 }));
    expect(parsed.markdown).toContain('Chapter three');
    expect(parsed.metadata).toMatchObject({ numPages: 3, title: 'Widget Pro Manual', creditsUsed: 3 });
    const raw = data(await env.ck.scrape({ url: `${env.server.url}/files/report.pdf`, parsers: [], maxAge: 0 }));
    expect(raw.markdown?.startsWith('JVBER')).toBe(true);
    expect(raw.metadata.creditsUsed).toBe(1);
  });

  it('removes base64 images from markdown unless asked to keep them', async () => {
    const url = `${env.server.url}/articles/inline-images.html`;
    const removed = data(await env.ck.scrape({ url, maxAge: 0 }));
    expect(removed.markdown).toContain('![A red pixel](<Base64-Image-Removed>)');
    const kept = data(await env.ck.scrape({ url, removeBase64Images: false, maxAge: 0 }));
    expect(kept.markdown).toContain('](data:image/png;base64,');
  });

  it('applies includeTags, excludeTags and onlyMainContent: false', async () => {
    const url = `${env.server.url}/products/widget.html`;
    const included = data(await env.ck.scrape({ url, includeTags: ['.specs'], maxAge: 0 }));
    expect(included.markdown).toContain('Aluminium 6061');
    expect(included.markdown).not.toContain('Add to cart');
    const excluded = data(await env.ck.scrape({ url, excludeTags: ['.review'], maxAge: 0 }));
    expect(excluded.markdown).not.toContain('Best square');
    const full = data(await env.ck.scrape({ url, onlyMainContent: false, maxAge: 0 }));
    expect(full.markdown).toContain('Free shipping over $50');
  });

  it('fails DNS and connection errors with a clear code', async () => {
    const dns = await env.ck.scrape({ url: 'http://does-not-exist.invalid/' });
    expect(dns).toMatchObject({ success: false, code: 'SCRAPE_DNS_RESOLUTION_ERROR' });
    const refused = await env.ck.scrape({ url: 'http://127.0.0.1:1/' });
    expect(refused).toMatchObject({ success: false });
    expect((refused as ErrorResponse).code).toMatch(/SCRAPE_/);
  });

  it('answers bad input with the v2 error shape, never a throw', async () => {
    const bad = await env.ck.scrape({ url: 'ftp://example.com/x' });
    expect(bad).toMatchObject({ success: false, code: 'BAD_REQUEST', error: 'URL uses unsupported protocol' });
    const noModel = await env.ck.scrape({ url: `${env.server.url}/`, formats: [{ type: 'json', prompt: 'x' }] });
    expect(noModel).toMatchObject({ success: false, code: 'LLM_NOT_CONFIGURED' });
    expect((noModel as ErrorResponse).error).toContain('llm');
  });
});

describe('page cache', () => {
  it('serves a repeat from the cache and honours maxAge, minAge and storeInCache', async () => {
    const url = `${env.server.url}/docs/getting-started.html?cache-test=1`;
    const count = () => env.server.requests.filter((r) => r.path === '/docs/getting-started.html?cache-test=1').length;

    const first = data(await env.ck.scrape({ url, storeInCache: false }));
    expect(first.metadata.cacheState).toBe('miss');
    const second = data(await env.ck.scrape({ url }));
    expect(second.metadata.cacheState).toBe('miss');
    const third = data(await env.ck.scrape({ url }));
    expect(third.metadata.cacheState).toBe('hit');
    expect(third.metadata.cachedAt).toBeDefined();
    expect(count()).toBe(2);
    expect(third.markdown).toBe(second.markdown);

    const html = data(await env.ck.scrape({ url, formats: ['html'] }));
    expect(html.metadata.cacheState).toBe('hit');
    expect(html.html).toContain('<h1>Getting started</h1>');

    await new Promise((r) => setTimeout(r, 5));
    expect(data(await env.ck.scrape({ url, maxAge: 1 })).metadata.cacheState).toBe('miss');
    expect(data(await env.ck.scrape({ url, maxAge: 0 })).metadata.cacheState).toBeUndefined();
    expect(await env.ck.scrape({ url, minAge: 60_000 })).toMatchObject({
      success: false,
      code: 'SCRAPE_NO_CACHED_DATA',
    });
    expect(data(await env.ck.scrape({ url, headers: { 'x-test': '1' } })).metadata.cacheState).toBeUndefined();
  });

  it('keeps mobile, blockAds and location languages apart, languages order-insensitive', async () => {
    const url = `${env.server.url}/listing.html?cache-test=2`;
    data(await env.ck.scrape({ url, location: { country: 'DE', languages: ['de-DE', 'hu-HU'] } }));
    const swapped = data(await env.ck.scrape({ url, location: { country: 'DE', languages: ['hu-HU', 'de-DE'] } }));
    expect(swapped.metadata.cacheState).toBe('hit');
    const otherAds = data(
      await env.ck.scrape({ url, location: { country: 'DE', languages: ['de-DE', 'hu-HU'] }, blockAds: false }),
    );
    expect(otherAds.metadata.cacheState).toBe('miss');
  });
});
