// A check's pages come from its crawl: a failed page is an `error` page, a webhook event the crawl gave up is not.
import { createMemoryStore, type JobRecord } from '@crawlkit/store';
import { afterEach, describe, expect, it } from 'vitest';

import { feedPages } from './monitor-checks.js';

const store = createMemoryStore();
afterEach(() => store.close());

const job: JobRecord = {
  id: 'job-1',
  kind: 'crawl',
  status: 'completed',
  request: JSON.stringify({ url: 'https://example.com' }),
  createdAt: 1_000,
  updatedAt: 1_000,
  creditsUsed: 0,
  storedBytes: 0,
};

describe('feedPages', () => {
  it("lists the crawl's failed pages, not its undelivered webhook events", async () => {
    await store.jobs.create(job, []);
    await store.results.addError(job.id, { url: 'https://example.com/gone', code: 'SCRAPE_FAILED', error: 'HTTP 500' });
    await store.results.addError(job.id, {
      url: 'http://127.0.0.1:9/hook',
      code: 'WEBHOOK_DELIVERY_FAILED',
      error: 'Webhook event crawl.page was not delivered after 1 attempt: HTTP 404',
    });
    const pages: { url: string; status: string }[] = [];
    await feedPages(store, job.id, '0192f0a4-0000-7000-8000-000000000001', 'target-1', { add: (p) => pages.push(p) });
    expect(pages.map((p) => [p.url, p.status])).toEqual([['https://example.com/gone', 'error']]);
  });
});
