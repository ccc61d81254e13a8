import { afterAll, describe, expect, it } from 'vitest';

import { Crawlkit } from '../index.js';

const ck = new Crawlkit({ store: 'memory' });
afterAll(() => ck.close());

/** The `error` of a refused call. */
const errorOf = (response: object) => (response as { error?: string }).error;

// The SDKs take the URL as the first argument (`scrape(url, options)`); the function API takes the v2 body.
describe('a string where the v2 body goes', () => {
  it('is told the body to write, with the key the method takes', async () => {
    const url = 'https://example.com/page';
    expect(await ck.scrape(url as never)).toMatchObject({
      success: false,
      code: 'BAD_REQUEST',
      error: `Bad Request: the body must be a JSON object, got a string: pass { url: "${url}", ...options }`,
    });
    expect(errorOf(await ck.crawl(url as never))).toContain(`pass { url: "${url}", ...options }`);
    expect(errorOf(await ck.map(url as never))).toContain(`pass { url: "${url}", ...options }`);
    expect(errorOf(await ck.batchScrape(url as never))).toContain(`pass { urls: ["${url}"], ...options }`);
    expect(errorOf(await ck.search('pricing' as never))).toContain('pass { query: "pricing", ...options }');
    // a string that is no valid URL still gets the hint: the body's shape is the mistake to fix first
    expect(errorOf(await ck.scrape('example' as never))).toContain('pass { url: "example", ...options }');
  });

  it('tells a missing body, null, an array or a number the object to pass, with the key the method takes', async () => {
    const hint = 'pass { url: "https://…", ...options }';
    expect(errorOf(await ck.scrape(undefined as never))).toBe(
      `Bad Request: the body must be a JSON object, got none: ${hint}`,
    );
    expect(errorOf(await ck.scrape(null as never))).toBe(
      `Bad Request: the body must be a JSON object, got null: ${hint}`,
    );
    expect(errorOf(await ck.scrape([] as never))).toBe(
      `Bad Request: the body must be a JSON object, got an array: ${hint}`,
    );
    expect(errorOf(await ck.map(42 as never))).toBe(
      `Bad Request: the body must be a JSON object, got a number: ${hint}`,
    );
    expect(errorOf(await ck.batchScrape(['https://a.example'] as never))).toContain(
      'got an array: pass { urls: ["https://…"], ...options }',
    );
    expect(errorOf(await ck.search(undefined as never))).toContain('got none: pass { query: "…", ...options }');
    // A body without one such key (a schedule's) is read as {}: the message names what it needs.
    expect(errorOf(await ck.schedules.create(undefined as never))).toMatch(/^Bad Request: targets: /);
  });
});

// A body brought from v1 or a Crawlee crawler: its keys are unknown to v2, which has them under other names.
describe('a key v2 has under another name', () => {
  it('is told as unknown with the v2 option to use', async () => {
    const url = 'https://example.com/docs';
    expect(errorOf(await ck.crawl({ url, maxDepth: 2 } as never))).toBe(
      'Unrecognized key in body -- please review the v2 API documentation for request body changes (unknown: ' +
        "maxDepth): v1's maxDepth is maxDiscoveryDepth (a crawl's depth by discovery order)",
    );
    expect(errorOf(await ck.crawl({ url, globs: ['/docs/**'], maxRequestsPerCrawl: 50 } as never))).toBe(
      'Unrecognized key in body -- please review the v2 API documentation for request body changes (unknown: ' +
        "globs, maxRequestsPerCrawl): Crawlee's globs are includePaths, regular expressions on the URL's path " +
        "(/docs/** is ^/docs/); Crawlee's maxRequestsPerCrawl is limit",
    );
    // v0's nested options, as LangChain's older loader examples pass them.
    expect(errorOf(await ck.crawl({ url, crawlerOptions: { excludes: ['blog/*'] } } as never))).toBe(
      'Unrecognized key in body -- please review the v2 API documentation for request body changes (unknown: ' +
        "crawlerOptions): v0's crawlerOptions are crawl options at the body's top level: includes is includePaths, " +
        'excludes is excludePaths, maxDepth is maxDiscoveryDepth',
    );
    expect(errorOf(await ck.scrape({ url, pageOptions: {}, extractorOptions: {} } as never))).toContain(
      "(unknown: pageOptions, extractorOptions): v0's pageOptions are scrape options at the body's top level (a " +
        "crawl's scrapeOptions): onlyMainContent, includeTags, waitFor…; v0's extractorOptions are a json format: " +
        "formats: [{ type: 'json', prompt, schema }]",
    );
  });

  it('leaves an unknown key v2 has under no name, and one inside an object, as they were told', async () => {
    const told = 'Unrecognized key in body -- please review the v2 API documentation for request body changes';
    expect(errorOf(await ck.crawl({ url: 'https://example.com', colour: 'red' } as never))).toBe(
      `${told} (unknown: colour)`,
    );
    expect(errorOf(await ck.crawl({ url: 'https://example.com', scrapeOptions: { maxDepth: 2 } } as never))).toBe(
      `${told} (unknown in scrapeOptions: maxDepth)`,
    );
  });
});
