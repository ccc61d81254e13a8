/**
 * The function API's call options (the last argument of every method) against a real engine and fixture site: a v2
 * option put there by the SDK habit (`scrape(url, options)`) is refused, naming where it goes, before any work starts;
 * before, `ck.crawl({ url }, { limit: 1 })` crawled up to the default 10,000 pages.
 */
import type { ErrorResponse } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';

const fixture = useFixtureEngine();

describe('call options', () => {
  it('refuses a v2 option given as a call option, naming the body it goes in, and starts no job', async () => {
    const { ck, server } = fixture;
    const url = `${server.url}/articles/first-post.html`;
    const fetched = server.requests.length;
    const crawl = (await ck.crawl({ url }, { limit: 1 } as never)) as ErrorResponse;
    expect(crawl).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(crawl.error).toContain('`limit`');
    expect(crawl.error).toContain('{ url, limit, ... }');
    expect((await ck.getActiveCrawls()).success && (await ck.getActiveCrawls())).toMatchObject({ crawls: [] });

    const scrape = (await ck.scrape({ url }, { formats: ['html'] } as never)) as ErrorResponse;
    expect(scrape).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(scrape.error).toContain('`formats`');
    expect(server.requests.length).toBe(fetched);
  });

  it('takes the documented call options', async () => {
    const { ck, server } = fixture;
    const url = `${server.url}/articles/first-post.html`;
    const page = await ck.scrape({ url }, { signal: new AbortController().signal, keepResult: true, tenant: 't' });
    expect(page.success).toBe(true);
    const crawl = await ck.crawl({ url, limit: 1 }, { idempotencyKey: 'call-options-1', baseUrl: 'http://x:1' });
    expect(crawl).toMatchObject({ success: true });
  });
});
