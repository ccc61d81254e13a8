/**
 * A crawl whose seed failed (a site down, a proxy that refused) ends failed, and its warning says why: not also
 * upstream's advice for a narrow scope ("Only 0 result(s) found … try crawlEntireDomain=true"), which a wider scope
 * would not have changed.
 */
import { Crawlkit } from 'crawlkit';
import { afterAll, describe, expect, it } from 'vitest';

const ck = new Crawlkit({ store: 'memory', engine: 'http' });
afterAll(() => ck.close());

describe('the warning of a crawl whose seed failed', () => {
  it('says why it failed, without the narrow-scope advice', { timeout: 30_000 }, async () => {
    const started = await ck.crawl({
      url: 'http://127.0.0.1:1/docs/',
      sitemap: 'skip',
      scrapeOptions: { timeout: 5000 },
    });
    if (!started.success) throw new Error(started.error);
    const done = await ck.waitForJob(started.id);
    if (!done.success) throw new Error(done.error);
    expect(done.status).toBe('failed');
    expect(done.warning).toContain('The job failed: No page was crawled: http://127.0.0.1:1/docs/ failed');
    expect(done.warning).not.toContain('result(s) found');
  });
});
