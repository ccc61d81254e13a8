/**
 * Search over a real local docs site crawled into a SQLite store: a phrase of a page's body finds it, the page about
 * the words ranks first, domain and time filters hold, `scrapeOptions` returns documents from the page cache, bad
 * queries get a clear error or are read as words (never an SQL error), and the official SDK's `search()` (v2 and
 * v1) reads the answer of `crawlkit serve`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import Firecrawl from '@mendable/firecrawl-js';
import { startServer, type CrawlkitServer } from '@crawlkit/server';
import { Crawlkit, type LocalResult, type SearchRequestInput, type SearchResponse } from 'crawlkit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ok } from './helpers/crawl-site-run.ts';

const DOCS = fileURLToPath(new URL('../fixtures/docs-site', import.meta.url));

let site: FixtureServer;
let ck: Crawlkit;
let dir: string;

beforeAll(async () => {
  site = await startFixtureServer({ root: DOCS });
  dir = mkdtempSync(join(tmpdir(), 'ck-search-'));
  ck = new Crawlkit({ storeDir: dir, engine: 'http' });
  const started = ok(await ck.crawl({ url: `${site.url}/`, limit: 20 }));
  const done = ok(await ck.waitForJob(started.id));
  expect(done.data).toHaveLength(8);
});

afterAll(async () => {
  await ck?.close();
  await site?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function search(body: SearchRequestInput): Promise<SearchResponse> {
  return ok(await ck.search(body));
}

const paths = (results: { url?: string }[] | undefined) => (results ?? []).map((r) => new URL(r.url!).pathname);

describe('search over a crawled docs site', () => {
  it('finds a page by a phrase in its body, with the matching passage', async () => {
    const answer = await search({ query: '"dead letter queue"' });
    const [first] = answer.data.web as LocalResult[];
    expect(paths(answer.data.web)).toEqual(['/guide/retries.html']);
    expect(first!.title).toBe('Retries and backoff | Harbor Docs');
    expect(first!.description).toContain('dead letter queue');
    expect(first!.highlights).toBe('The dead letter queue keeps jobs that failed every attempt.');
    expect(first!.category).toBe('local');
    expect(answer.creditsUsed).toBe(2);
  });

  it('ranks the page about the words first, before pages that mention them', async () => {
    const answer = await search({ query: 'proxy server', limit: 10 });
    expect(paths(answer.data.web)[0]).toBe('/guide/proxies.html');
    expect(paths(answer.data.web)).toContain('/guide/scheduling.html');
    const backoff = await search({ query: 'exponential backoff retry' });
    expect(paths(backoff.data.web)[0]).toBe('/guide/retries.html');
  });

  it('reads prefixes, exclusions and stems', async () => {
    expect(paths((await search({ query: 'logrot*' })).data.web)).toEqual(['/guide/logging.html']);
    const noScheduling = await search({ query: 'proxy -cron', limit: 10 });
    expect(paths(noScheduling.data.web)).not.toContain('/guide/scheduling.html');
    expect(paths(noScheduling.data.web)).toContain('/guide/proxies.html');
    // "installs" and "installing" are the stem of "install".
    expect(paths((await search({ query: 'installing' })).data.web)[0]).toBe('/guide/installation.html');
  });

  it('filters by domain, subdomains included', async () => {
    ok(await ck.scrape({ url: `http://localhost:${site.port}/guide/logging.html` }));
    const local = await search({ query: 'logrotate', includeDomains: ['localhost'] });
    expect((local.data.web ?? []).map((r) => new URL(r.url).hostname)).toEqual(['localhost']);
    const loopback = await search({ query: 'logrotate', excludeDomains: ['localhost'] });
    expect((loopback.data.web ?? []).map((r) => new URL(r.url).hostname)).toEqual(['127.0.0.1']);
    expect((await ck.search({ query: 'x', includeDomains: ['a.com'], excludeDomains: ['b.com'] })).success).toBe(false);
  });

  it('takes up to 100 domains in a filter and refuses more naming the field, never a store failure', async () => {
    const domains = (n: number) => Array.from({ length: n }, (_, i) => `host-${i}.example.com`);
    for (const field of ['includeDomains', 'excludeDomains'] as const) {
      expect((await ck.search({ query: 'logrotate', [field]: domains(100) })).success).toBe(true);
      const refused = await ck.search({ query: 'logrotate', [field]: domains(2000) });
      expect(refused).toMatchObject({ success: false, code: 'BAD_REQUEST' });
      expect((refused as { error: string }).error).toBe(`\`${field}\` takes at most 100 domains; got 2000.`);
    }
  });

  it('filters by time (tbs)', async () => {
    expect(paths((await search({ query: 'toml', tbs: 'qdr:h' })).data.web)).toEqual(['/guide/configuration.html']);
    expect((await search({ query: 'toml', tbs: 'cdr:1,cd_min:1/1/2000,cd_max:12/31/2000' })).data.web).toEqual([]);
    const bad = await ck.search({ query: 'harbor', tbs: 'yesterday' });
    expect(bad).toMatchObject({ success: false, code: 'BAD_REQUEST' });
  });

  it('returns each result with its document when scrapeOptions is given, from the page cache', async () => {
    const answer = await search({ query: 'SQLite file', limit: 1, scrapeOptions: { formats: ['markdown'] } });
    const [doc] = answer.data.web as (LocalResult & { markdown: string; metadata: Record<string, unknown> })[];
    expect(new URL(doc!.url).pathname).toBe('/guide/faq.html');
    expect(doc!.markdown).toContain('state lives in a SQLite file');
    expect(doc!.metadata.cacheState).toBe('hit');
    // 2 for the search, 1 for the page scraped.
    expect(answer.creditsUsed).toBe(3);
  });

  it('reserves its credits under a credit limit, settles them to what it cost, and is refused when they do not fit', async () => {
    const before = await ck.credits.committed();
    expect(typeof before).toBe('number');
    const limit = (before as number) + 5;
    // Estimate: 2 for up to 10 results, 1 for each of 2 documents; it costs 2 + 1.
    const paid = ok(
      await ck.search(
        { query: 'SQLite file', limit: 2, scrapeOptions: { formats: ['markdown'] } },
        { creditLimit: limit },
      ),
    );
    expect(await ck.credits.committed()).toBe((before as number) + paid.creditsUsed);
    const refused = await ck.search(
      { query: 'SQLite file', limit: 10, scrapeOptions: { formats: ['markdown'] } },
      { creditLimit: limit },
    );
    expect(refused).toMatchObject({ success: false, code: 'INSUFFICIENT_CREDITS' });
    expect(await ck.credits.committed()).toBe((before as number) + paid.creditsUsed);
  });

  it('groups results by source: local by name, and no news without a provider', async () => {
    const answer = await search({ query: 'lease option', sources: ['local', 'news'] });
    expect(paths(answer.data.local)).toEqual(['/guide/faq.html']);
    expect(answer.data.news).toEqual([]);
    expect(answer.warning).toContain('No web search provider is configured');
  });

  it('answers an empty or a 10,000-character query with a clear error', async () => {
    for (const query of ['', '   ', 'x'.repeat(10_000)]) {
      const answer = await ck.search({ query });
      expect(answer).toMatchObject({ success: false, code: 'BAD_REQUEST' });
      expect((answer as { error: string }).error).toMatch(/query is empty|at most 1000 characters/);
    }
    expect(await ck.search({ query: '*** --- """' })).toMatchObject({ success: false, code: 'BAD_REQUEST' });
  });

  it('reads FTS syntax as words, never as SQL or FTS5 syntax', async () => {
    const hostile = [
      '"',
      '*',
      'NEAR',
      'proxy NEAR/2 server',
      '(((proxy',
      'proxy) OR (',
      '"unbalanced proxy',
      'NOT proxy',
      "'; DROP TABLE pages; --",
      'title:proxy',
      '^proxy',
      'proxy AND',
      '{proxy}',
      'pro"xy',
    ];
    for (const query of hostile) {
      const answer = await ck.search({ query });
      if (!answer.success) expect(answer.code, query).toBe('BAD_REQUEST');
    }
    expect(paths((await search({ query: 'NOT proxy', limit: 10 })).data.web)).toContain('/guide/proxies.html');
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (query) => {
        const answer = await ck.search({ query });
        return answer.success || answer.code === 'BAD_REQUEST';
      }),
      { numRuns: 200 },
    );
  });
});

describe("the official SDK's search() against crawlkit serve", () => {
  let server: CrawlkitServer;
  beforeAll(async () => {
    server = await startServer({ crawlkit: ck, port: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('gets the stored pages as web results, and a documents with scrapeOptions', async () => {
    const firecrawl = new Firecrawl({ apiKey: 'fc-any', apiUrl: server.url });
    const answer = await firecrawl.search('cron expressions time zone', { limit: 3 });
    expect(paths(answer.web as { url: string }[])[0]).toBe('/guide/scheduling.html');
    const withDocs = await firecrawl.search('HARBOR_LOG', { limit: 1, scrapeOptions: { formats: ['markdown'] } });
    expect((withDocs.web?.[0] as { markdown?: string }).markdown).toContain('structured logs');
  });

  it("answers the v1 SDK's search (POST /v1/search): one list of results, documents for the formats asked", async () => {
    const { v1 } = new Firecrawl({ apiKey: 'fc-any', apiUrl: server.url });
    // Before: 404 ENDPOINT_NOT_SUPPORTED "v1 search (crawlkit answers POST /v2/search)".
    const answer = await v1.search('cron expressions time zone', { limit: 3 });
    expect(answer.success).toBe(true);
    expect(paths(answer.data)[0]).toBe('/guide/scheduling.html');
    expect(answer.data[0]!.title).toBeTruthy();
    // The SDK sends `scrapeOptions: { formats: [] }`: results alone, nothing scraped.
    expect(answer.data.every((d) => d.markdown === undefined)).toBe(true);
    expect(answer.warning).toBeUndefined();
    const withDocs = await v1.search('HARBOR_LOG', { limit: 1, lang: 'de', scrapeOptions: { formats: ['markdown'] } });
    expect(withDocs.data[0]!.markdown).toContain('structured logs');
    expect(withDocs.warning).toContain('`lang` (v1) has no v2 equivalent and was not used (got "de")');
  });
});
