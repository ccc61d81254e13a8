import { describe, expect, it } from 'vitest';

import { batchScrapeRequestSchema, crawlRequestSchema, mapRequestSchema } from './jobs.js';
import { parseBody } from './parse.js';

describe('crawl, map and batch defaults (items 16–18)', () => {
  it('crawl', () => {
    const result = parseBody(crawlRequestSchema, { url: 'https://example.com' });
    if (!result.ok) throw new Error(result.error.error);
    expect(result.value.limit).toBe(10_000);
    expect(result.value.sitemap).toBe('include');
    expect(result.value.scrapeOptions.formats).toEqual([{ type: 'markdown' }]);
    expect(parseBody(crawlRequestSchema, { url: 'https://example.com', sitemap: 'invalid' }).ok).toBe(false);
    const badRegex = parseBody(crawlRequestSchema, { url: 'https://example.com', includePaths: ['(unclosed'] });
    expect(badRegex.ok).toBe(false);
    if (!badRegex.ok) expect(badRegex.error.error).toContain('Invalid regular expression');
  });
  it('map', () => {
    const result = parseBody(mapRequestSchema, { url: 'https://example.com' });
    if (!result.ok) throw new Error(result.error.error);
    expect(result.value).toMatchObject({
      limit: 5000,
      includeSubdomains: true,
      ignoreQueryParameters: true,
      sitemap: 'include',
      filterByPath: true,
      useIndex: true,
    });
    expect(parseBody(mapRequestSchema, { url: 'https://example.com', limit: 200_000 }).ok).toBe(false);
    expect(parseBody(mapRequestSchema, { url: 'https://example.com', limit: 0 }).ok).toBe(false);
    expect(parseBody(mapRequestSchema, { url: 'https://example.com', limit: 10_000 }).ok).toBe(true);
  });
  it('batch', () => {
    expect(parseBody(batchScrapeRequestSchema, { urls: [] }).ok).toBe(false);
    expect(parseBody(batchScrapeRequestSchema, { urls: ['https://a.com'], appendToId: 'nope' }).ok).toBe(false);
    expect(parseBody(batchScrapeRequestSchema, { urls: ['https://a.com', 'https://b.com'] }).ok).toBe(true);
  });
});

describe('webhook URL (reference §16: a valid URL)', () => {
  const crawl = (webhook: unknown) => parseBody(crawlRequestSchema, { url: 'https://example.com', webhook });

  it('takes a receiver on a host without a dot (a Compose service, an intranet name), as a string or an object', () => {
    for (const webhook of ['http://receiver:8080/hook', { url: 'https://hooks/crawl' }]) {
      const result = crawl(webhook);
      if (!result.ok) throw new Error(`refused: ${result.error.error}`);
      expect(result.value.webhook?.url).toBe(typeof webhook === 'string' ? webhook : webhook.url);
    }
  });

  it('refuses what is no http(s) address with a message naming the webhook, not the crawl URL', () => {
    for (const url of ['notaurl', 'ftp://files.example.com/x', 'http://', '']) {
      const result = crawl({ url });
      if (result.ok) throw new Error(`accepted ${url}`);
      expect(result.error.code).toBe('BAD_REQUEST');
      expect(result.error.error).toMatch(/^webhook\.url: /);
      expect(result.error.error).toContain(JSON.stringify(url));
    }
  });
});

describe('modifiedSince', () => {
  const crawl = (modifiedSince: string) => parseBody(crawlRequestSchema, { url: 'https://example.com', modifiedSince });
  it('takes ISO 8601 dates and times, and refuses what Date.parse reads otherwise', () => {
    for (const good of ['2026-01-31', '2026-01-31T12:00:00Z', '2026-01-31T12:00:00.5+02:00', '2026-01-31T12:00']) {
      expect(crawl(good).ok, good).toBe(true);
    }
    // Date.parse reads each of these as some date: 1.5 as 5 January 2001, -1 as the year -1.
    for (const bad of ['1.5', '-1', 'Dec 25 2026', '2026', '2026-13-01']) {
      const result = crawl(bad);
      expect(result.ok, bad).toBe(false);
      if (!result.ok) expect(JSON.stringify(result.error)).toMatch(/ISO 8601/);
    }
  });
});
