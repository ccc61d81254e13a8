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

  it("refuses a method's own option given to another method, naming the methods that take it", async () => {
    const { ck, server } = fixture;
    const url = `${server.url}/articles/first-post.html`;
    const crawl = await ck.crawl({ url, limit: 1 });
    if (!crawl.success) throw new Error(crawl.error);
    // Before, every method took every call option: `documents: false` on a status read was ignored (all its
    // documents answered), `keepResult` on a crawl kept nothing.
    const status = (await ck.getCrawlStatus(crawl.id, {}, { documents: false } as never)) as ErrorResponse;
    expect(status).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(status.error).toContain('`documents` is a call option of waitForJob only');
    const kept = (await ck.crawl({ url, limit: 1 }, { keepResult: true } as never)) as ErrorResponse;
    expect(kept).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(kept.error).toContain('`keepResult` is a call option of scrape only');
    const keyed = (await ck.map({ url }, { idempotencyKey: 'k' } as never)) as ErrorResponse;
    expect(keyed.error).toContain('`idempotencyKey` is a call option of crawl and batchScrape only');
    // Where they belong, and `undefined` anywhere (a caller spreading its own options), they are taken.
    expect(await ck.waitForJob(crawl.id, { documents: false })).toMatchObject({ success: true, data: [] });
    expect(await ck.getCrawlStatus(crawl.id, {}, { documents: undefined } as never)).toMatchObject({ success: true });
  });
});
