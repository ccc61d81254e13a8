/**
 * Crawl jobs end to end (the batch and webhook cases are in batch.test.ts, webhooks.test.ts and
 * webhook-restarts.test.ts).
 */

import { type ErrorResponse } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';

const env = useFixtureEngine({ crawlkit: (dir) => ({ storeDir: dir, engine: 'http' }) });

function ok<T extends { success: boolean }>(value: T): Exclude<T, ErrorResponse> {
  if (!value.success) throw new Error(`unexpected error: ${(value as unknown as ErrorResponse).error}`);
  return value as Exclude<T, ErrorResponse>;
}

describe('crawl', () => {
  it('follows links in scope, respects limit, and lists itself while active', async () => {
    const started = ok(await env.ck.crawl({ url: `${env.server.url}/`, limit: 5, crawlEntireDomain: true }));
    expect(started.url).toBe(`crawlkit://v2/crawl/${started.id}`);
    const active = ok(await env.ck.getActiveCrawls());
    expect(active.crawls.map((c) => c.id)).toContain(started.id);
    const done = ok(await env.ck.waitForJob(started.id));
    expect(done.status).toBe('completed');
    expect(done.total).toBe(5);
    expect(done.data.length).toBeGreaterThanOrEqual(4);
    const sources = done.data.map((d) => d.metadata.sourceURL);
    expect(sources).toContain(`${env.server.url}/`);
    expect(new Set(sources).size).toBe(sources.length);
    const after = ok(await env.ck.getActiveCrawls());
    expect(after.crawls.map((c) => c.id)).not.toContain(started.id);
  });

  it('keeps to the seed directory without crawlEntireDomain', async () => {
    const started = ok(await env.ck.crawl({ url: `${env.server.url}/articles/first-post.html`, limit: 20 }));
    const done = ok(await env.ck.waitForJob(started.id));
    for (const doc of done.data) expect(new URL(doc.metadata.sourceURL).pathname).toMatch(/^\/articles\//);
    expect(done.data.length).toBeGreaterThanOrEqual(2);
  });

  it('waits for the end without reading the documents (documents: false), then reads a page of them', async () => {
    const started = ok(await env.ck.crawl({ url: `${env.server.url}/`, limit: 5, crawlEntireDomain: true }));
    const ended = ok(await env.ck.waitForJob(started.id, { documents: false }));
    // Before: every document of the job in `data` (a large crawl held in memory whole by a caller wanting one page).
    expect(ended).toMatchObject({ status: 'completed', completed: 5, total: 5, data: [] });
    expect(ended.next).toBeUndefined();
    expect(ok(await env.ck.getCrawlStatus(started.id, { skip: 3, limit: 2 })).data).toHaveLength(2);
    expect(ok(await env.ck.waitForJob(started.id)).data).toHaveLength(5);
    expect(await env.ck.waitForJob(started.id, { documents: 'no' as never })).toMatchObject({
      success: false,
      code: 'BAD_REQUEST',
      error: '`documents` must be true or false.',
    });
  });

  it("reads a job's documents only for its tenant, as its status", async () => {
    const started = ok(await env.ck.crawl({ url: `${env.server.url}/`, limit: 2 }, { tenant: 'team-a' }));
    ok(await env.ck.waitForJob(started.id, { tenant: 'team-a', documents: false }));
    expect(ok(await env.ck.readJobDocuments(started.id, {}, { tenant: 'team-a' })).documents).toHaveLength(2);
    expect(await env.ck.getCrawlStatus(started.id, {}, { tenant: 'team-b' })).toMatchObject({ code: 'JOB_NOT_FOUND' });
    // Before: another tenant read every document.
    expect(await env.ck.readJobDocuments(started.id, {}, { tenant: 'team-b' })).toMatchObject({
      success: false,
      code: 'JOB_NOT_FOUND',
    });
  });

  it('rejects invalid path regexes', async () => {
    const response = await env.ck.crawl({ url: `${env.server.url}/`, includePaths: ['(unclosed'] });
    expect(response).toMatchObject({ success: false, code: 'BAD_REQUEST' });
  });
});
