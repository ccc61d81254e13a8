import { gzipSync } from 'node:zlib';

import robotsParserModule from 'robots-parser';
import { describe, expect, it } from 'vitest';

import type { FetchText } from './fetch-text.js';
import { HostPoliteness, parseRetryAfter, retryDelay } from './politeness.js';
import { loadRobots, parseRobots } from './robots.js';
import { discoverSitemaps, discoverSitemapUrls, parseSitemap, readSitemap, type SitemapBody } from './sitemaps.js';

// robots-parser is CommonJS; its typings declare an ES default export.
const robotsParser = robotsParserModule as unknown as (
  url: string,
  body: string,
) => { isAllowed(url: string, ua?: string): boolean | undefined };

const ROBOTS = `User-agent: *
Disallow: /private/
Crawl-delay: 2
Sitemap: https://site.test/sitemap-index.xml

User-agent: FireCrawlAgent
Disallow: /no-firecrawl/
`;

function fakeSite(files: Record<string, string | Uint8Array>): FetchText {
  return (url) => {
    const body = files[url];
    if (body === undefined) {
      return Promise.resolve({ url, status: 404, contentType: 'text/html', body: new Uint8Array(), text: 'nope' });
    }
    const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
    return Promise.resolve({ url, status: 200, contentType: 'application/xml', body: bytes });
  };
}

describe('robots.txt', () => {
  const robots = parseRobots('https://site.test', ROBOTS, 'crawlkit');
  it('applies the * group and groups written for the upstream agent', () => {
    expect(robots.isAllowed('https://site.test/public')).toBe(true);
    expect(robots.isAllowed('https://site.test/private/x')).toBe(false);
    expect(robots.isAllowed('https://site.test/no-firecrawl/x')).toBe(false);
    expect(robots.isAllowed('https://elsewhere.test/private/x')).toBe(true);
  });
  it('reads Crawl-delay and Sitemap lines', () => {
    expect(robots.crawlDelay()).toBe(2);
    expect(robots.sitemaps()).toEqual(['https://site.test/sitemap-index.xml']);
  });
  it('allows everything when robots.txt is missing or unreachable', async () => {
    const missing = await loadRobots('https://site.test', fakeSite({}), 'crawlkit');
    expect(missing.source).toBe('missing');
    expect(missing.isAllowed('https://site.test/private/x')).toBe(true);
    const down = await loadRobots('https://site.test', () => Promise.reject(new Error('refused')), 'crawlkit');
    expect(down.source).toBe('unavailable');
    expect(down.unavailable).toBe('refused');
    expect(missing.unavailable).toBeUndefined();
    const busy = await loadRobots(
      'https://site.test',
      (url) => Promise.resolve({ url, status: 429, contentType: 'text/plain', body: new Uint8Array() }),
      'crawlkit',
    );
    expect([busy.source, busy.unavailable, busy.isAllowed('https://site.test/private/x')]).toEqual([
      'unavailable',
      'answered 429',
      true,
    ]);
  });
  it('judges as robots-parser does, whether or not a rule can refuse anything', () => {
    // Files without a Disallow rule skip the matching: each verdict is checked against robots-parser itself.
    const bodies = [
      'User-agent: *\nAllow: /\n',
      'User-agent: *\nDisallow:\n',
      'User-agent: *\nDisallow: # nothing\n# Disallow: /commented/\n',
      'User-agent: *\r\nDISALLOW : /private/\r\n',
      'User-agent: *\rAllow: /\r  disallow:/private/x\r',
      'User-agent: other\nDisallow: /\n',
      'User-agent: FirecrawlAgent\nDisallow: /private/\n',
      'Sitemap: https://site.test/sitemap.xml\n',
      '',
    ];
    const urls = ['https://site.test/', 'https://site.test/private/x', 'https://site.test/commented/', 'not a url'];
    const agents = ['crawlkit', 'FireCrawlAgent', 'FirecrawlAgent'];
    for (const body of bodies) {
      const direct = robotsParser('https://site.test/robots.txt', body);
      const robots = parseRobots('https://site.test', body, 'crawlkit');
      for (const url of urls) {
        const expected = agents.every((agent) => direct.isAllowed(url, agent) !== false);
        expect(robots.isAllowed(url), `${JSON.stringify(body)} ${url}`).toBe(expected);
      }
    }
    // The cases above that refuse: a rule in any case and spacing, in the * group or the upstream agent's.
    expect(parseRobots('https://site.test', bodies[3]!, 'crawlkit').isAllowed('https://site.test/private/x')).toBe(
      false,
    );
    expect(parseRobots('https://site.test', bodies[4]!, 'crawlkit').isAllowed('https://site.test/private/x')).toBe(
      false,
    );
    expect(parseRobots('https://site.test', bodies[6]!, 'crawlkit').isAllowed('https://site.test/private/x')).toBe(
      false,
    );
  });
});

describe('sitemaps', () => {
  const index = `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    <sitemap><loc>https://site.test/sitemap-a.xml</loc></sitemap>
    <sitemap><loc>http://www.site.test/sitemap-b.xml.gz</loc></sitemap>
    <sitemap><loc>https://evil.test/sitemap.xml</loc></sitemap>
  </sitemapindex>`;
  const a = `<urlset><url><loc>https://site.test/a1</loc></url><url><loc> https://site.test/a2?x=1&amp;y=2 </loc></url></urlset>`;
  const b = gzipSync(`<urlset><url><loc>https://site.test/b1</loc></url></urlset>`);

  it('parses urlsets, indexes and text sitemaps', () => {
    expect(parseSitemap(a).urls).toEqual(['https://site.test/a1', 'https://site.test/a2?x=1&y=2']);
    expect(parseSitemap(index).sitemaps).toHaveLength(3);
    expect(parseSitemap('https://site.test/x\nnot a url\nhttps://site.test/y\n').urls).toEqual([
      'https://site.test/x',
      'https://site.test/y',
    ]);
  });

  it('follows robots.txt, indexes and gzip; www and scheme variants count as the same site', async () => {
    const fetchText = fakeSite({
      'https://site.test/sitemap-index.xml': index,
      'https://site.test/sitemap-a.xml': a,
      'http://www.site.test/sitemap-b.xml.gz': b,
      'https://evil.test/sitemap.xml': '<urlset><url><loc>https://evil.test/x</loc></url></urlset>',
    });
    const robots = parseRobots('https://site.test', ROBOTS, 'crawlkit');
    const urls = await discoverSitemapUrls('https://site.test/', { fetchText, robots });
    expect(urls.sort()).toEqual(['https://site.test/a1', 'https://site.test/a2?x=1&y=2', 'https://site.test/b1']);
  });

  it('lists the sitemaps it could not read, with why; a missing one (404) is not listed', async () => {
    const robots = parseRobots(
      'https://site.test',
      'Sitemap: https://site.test/busy.xml\nSitemap: https://site.test/down.xml\nSitemap: https://site.test/gone.xml\n',
      'crawlkit',
    );
    const fetchText: FetchText = (url) => {
      if (url.endsWith('/down.xml'))
        return Promise.reject(Object.assign(new Error('Connection reset.'), { code: 'E' }));
      const status = url.endsWith('/busy.xml') ? 429 : url.endsWith('/gone.xml') ? 404 : 200;
      return Promise.resolve({ url, status, contentType: 'application/xml', body: new TextEncoder().encode(a) });
    };
    const listing = await discoverSitemaps('https://site.test/', { fetchText, robots });
    expect(listing.urls).toHaveLength(2);
    expect(listing.unreadable).toEqual([
      { url: 'https://site.test/busy.xml', reason: 'answered 429' },
      { url: 'https://site.test/down.xml', reason: 'E: Connection reset' },
    ]);
  });

  it('caps the number of sitemap documents', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) {
      files[i === 0 ? 'https://site.test/sitemap.xml' : `https://site.test/s${i}.xml`] =
        `<sitemapindex><sitemap><loc>https://site.test/s${i + 1}.xml</loc></sitemap></sitemapindex>`;
    }
    let calls = 0;
    const fetchText: FetchText = (url, init) => {
      calls++;
      return fakeSite(files)(url, init);
    };
    await discoverSitemapUrls('https://site.test/', { fetchText, maxSitemaps: 5 });
    expect(calls).toBe(5);
  });

  it('hands each fetched document to the readSitemap driver, with the URLs still wanted', async () => {
    const fetchText = fakeSite({
      'https://site.test/sitemap-index.xml': index,
      'https://site.test/sitemap-a.xml': a,
      'http://www.site.test/sitemap-b.xml.gz': b,
      'https://site.test/sitemap.xml': '<!doctype html><html><body>Page not found</body></html>',
    });
    const robots = parseRobots('https://site.test', ROBOTS, 'crawlkit');
    const seen: Omit<SitemapBody, 'body'>[] = [];
    const urls = await discoverSitemapUrls('https://site.test/', {
      fetchText,
      robots,
      maxUrls: 2,
      readSitemap: ({ body, ...rest }) => {
        seen.push(rest);
        return Promise.resolve(readSitemap({ body, ...rest }));
      },
    });
    expect(seen.map((s) => [s.url, s.maxUrls])).toEqual([
      ['https://site.test/sitemap-index.xml', 2],
      ['https://site.test/sitemap.xml', 2], // a soft 404: read, no URLs
      ['https://site.test/sitemap-a.xml', 2],
    ]);
    expect(urls).toEqual(['https://site.test/a1', 'https://site.test/a2?x=1&y=2']);
    // A soft 404 is no sitemap; a gzipped one is read whole, up to the URLs asked for.
    expect(
      readSitemap({ url: 'x', body: new TextEncoder().encode('<html><body>Not found'), maxBytes: 1e6, maxUrls: 9 }),
    ).toBe(undefined);
    expect(readSitemap({ url: 'x', body: b, maxBytes: 1e6, maxUrls: 9 })?.urls).toEqual(['https://site.test/b1']);
    expect(readSitemap({ url: 'x', body: new TextEncoder().encode(a), maxBytes: 1e6, maxUrls: 1 })?.urls).toEqual([
      'https://site.test/a1',
    ]);
  });
});

describe('politeness', () => {
  it('spaces requests to one host and leaves other hosts alone', () => {
    const p = new HostPoliteness({ delayMs: 1000 });
    expect(p.reserve('https://a.test/1', 0)).toBe(0);
    expect(p.reserve('https://a.test/2', 100)).toBe(900);
    expect(p.reserve('https://b.test/1', 100)).toBe(0);
    expect(p.reserve('https://a.test/2', 1000)).toBe(0);
  });
  it('honours a per-host Crawl-delay larger than the crawl delay', () => {
    const p = new HostPoliteness({ delayMs: 100 });
    p.setHostDelay('a.test', 2000);
    p.reserve('https://a.test/1', 0);
    expect(p.reserve('https://a.test/2', 500)).toBe(1500);
  });
  it('caps a Crawl-delay at maxHostDelayMs', () => {
    const p = new HostPoliteness({ maxHostDelayMs: 3000 });
    p.setHostDelay('a.test', 3_600_000);
    p.reserve('https://a.test/1', 0);
    expect(p.reserve('https://a.test/2', 0)).toBe(3000);
  });
  it('tells the spacing of a host: the crawl delay, or its capped Crawl-delay when larger', () => {
    const p = new HostPoliteness({ delayMs: 500, maxHostDelayMs: 3000 });
    p.setHostDelay('A.test', 3_600_000);
    expect(p.spacing('https://a.test/x')).toBe(3000);
    expect(p.spacing('https://b.test/x')).toBe(500);
    expect(p.spacing('not a url')).toBe(500);
    expect(new HostPoliteness().spacing('https://a.test/')).toBe(0);
  });
  it('pauses a host for a given time, capped at maxBackoffMs', () => {
    const p = new HostPoliteness({ maxBackoffMs: 5000 });
    p.pause('https://a.test/x', 2000, 0);
    expect(p.reserve('https://a.test/y', 500)).toBe(1500);
    expect(p.reserve('https://b.test/y', 500)).toBe(0);
    p.pause('https://a.test/x', 60_000, 3000);
    expect(p.reserve('https://a.test/y', 3000)).toBe(5000);
  });
  it('tells a rest from spacing: a request sent counts the spacing again, only a pause is a rest', () => {
    const p = new HostPoliteness({ delayMs: 1000 });
    expect(p.reserve('https://a.test/1', 0)).toBe(0);
    p.sent('https://a.test/1', 300);
    expect(p.reserve('https://a.test/2', 1000)).toBe(300);
    expect(p.restingFor('https://a.test/2', 1000)).toBe(0);
    p.pause('https://a.test/1', 5000, 1000);
    expect(p.restingFor('https://a.test/2', 2000)).toBe(4000);
    expect(p.restingFor('https://b.test/2', 2000)).toBe(0);
    expect(p.restingFor('not a url', 2000)).toBe(0);
    expect(p.restingFor('https://a.test/2', 6000)).toBe(0);
  });
  it('backs off on 429 with Retry-After', () => {
    const p = new HostPoliteness();
    const wait = retryDelay({ status: 429, retryAfter: '3' }, 0, Math.random, 0)!;
    expect(wait).toBe(3000);
    p.pause('https://a.test/x', wait, 0);
    expect(p.reserve('https://a.test/y', 1000)).toBe(2000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:27:00 GMT'))).toBe(60_000);
  });
  it('retries 429 and 503 up to 3 times: Retry-After capped at 60 s, else doubling back-off half random', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:27:00 GMT');
    expect(retryDelay({ status: 503, retryAfter: 'Wed, 21 Oct 2015 07:27:30 GMT' }, 0, Math.random, now)).toBe(30_000);
    expect(retryDelay({ status: 429, retryAfter: '3600' }, 2)).toBe(60_000);
    expect(retryDelay({ status: 429, retryAfter: '0' }, 0)).toBe(0);
    // Without Retry-After (or an unreadable one): 1–2 s, 2–4 s, 4–8 s, half fixed, half random.
    expect(retryDelay({ status: 429 }, 0, () => 0)).toBe(1000);
    expect(retryDelay({ status: 429, retryAfter: 'soon' }, 0, () => 1)).toBe(2000);
    expect(retryDelay({ status: 503 }, 1, () => 0.5)).toBe(3000);
    expect(retryDelay({ status: 503 }, 2, () => 1)).toBe(8000);
    // Given up after the third retry; other statuses are never retried.
    expect(retryDelay({ status: 429, retryAfter: '1' }, 3)).toBeUndefined();
    expect(retryDelay({ status: 500 }, 0)).toBeUndefined();
    expect(retryDelay({ status: 200, retryAfter: '1' }, 0)).toBeUndefined();
  });
  it('retries a dropped connection with the same back-off and the same count of 3 retries', () => {
    expect(retryDelay({ dropped: true }, 0, () => 0)).toBe(1000);
    expect(retryDelay({ dropped: true }, 2, () => 1)).toBe(8000);
    expect(retryDelay({ dropped: true }, 3)).toBeUndefined();
  });
});

describe('sitemap lastmod', () => {
  it('reads <lastmod> per page URL, a date alone as midnight UTC, and ignores extension elements', () => {
    const doc = parseSitemap(
      '<urlset xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">' +
        '<url><loc>https://a.test/one</loc><lastmod>2026-03-01T10:00:00+02:00</lastmod></url>' +
        '<url><lastmod>2026-01-02</lastmod><loc>https://a.test/two</loc>' +
        '<image:image><image:loc>https://a.test/pic.png</image:loc></image:image></url>' +
        '<url><loc>https://a.test/three</loc><lastmod>not a date</lastmod></url>' +
        '</urlset>',
    );
    expect(doc.urls).toEqual(['https://a.test/one', 'https://a.test/two', 'https://a.test/three']);
    expect([...doc.lastmod!]).toEqual([Date.UTC(2026, 2, 1, 8), Date.UTC(2026, 0, 2), Number.NaN]);
  });
});
