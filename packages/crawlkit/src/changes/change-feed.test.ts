import { createMemoryStore, type JobRecord, type Store } from '@crawlkit/store';
import { afterEach, describe, expect, it } from 'vitest';

import { storedJobCodec } from '../codec/records.js';
import { crawlRequestSchema } from '../v2/jobs.js';
import { completedChanges, contentHash, finishChangeFeed, lineageOf, loadBaseline } from './change-feed.js';

let store: Store;
afterEach(async () => store.close());

/** A crawl job of the tag `t` whose stored pages are `pages` (path → markdown). */
async function crawlJob(id: string, pages: Record<string, string>): Promise<JobRecord> {
  const request = crawlRequestSchema.parse({ url: 'https://a.test/', tag: 't' });
  const job: JobRecord = {
    id,
    kind: 'crawl',
    status: 'scraping',
    request: storedJobCodec.encode({ request }),
    createdAt: Date.now(),
    updatedAt: Date.now(),
    creditsUsed: 0,
  };
  const keys = Object.keys(pages);
  await store.jobs.create(job, [...keys.map((path) => ({ key: path, url: `https://a.test${path}`, depth: 0 }))]);
  await store.tasks.claim(id, keys.length);
  for (const path of keys) {
    const metadata = { sourceURL: `https://a.test${path}`, statusCode: 200, contentHash: contentHash(pages[path]!) };
    await store.tasks.complete(id, { key: path, credits: 1, document: JSON.stringify({ metadata }) });
  }
  return job;
}

describe('closing a change feed', () => {
  it('makes the run the baseline and keeps the removed pages, once even when closed again', async () => {
    store = createMemoryStore();
    const first = await crawlJob('00000000-0000-7000-8000-000000000001', { '/a': 'A', '/b': 'B' });
    await finishChangeFeed(store, first);
    const lineage = lineageOf(crawlRequestSchema.parse({ url: 'https://a.test/', tag: 't' }), undefined);
    expect((await loadBaseline(store, lineage)).pages.size).toBe(2);

    const second = await crawlJob('00000000-0000-7000-8000-000000000002', { '/a': 'A changed' });
    await finishChangeFeed(store, second);
    const closed = { previousJobId: first.id, removed: ['https://a.test/b'] };
    expect(await completedChanges(store, second.id)).toEqual(closed);
    // A crash after the close and before the job was marked completed: closing again changes nothing.
    await finishChangeFeed(store, second);
    expect(await completedChanges(store, second.id)).toEqual(closed);
    const baseline = await loadBaseline(store, lineage);
    expect(baseline.jobId).toBe(second.id);
    expect([...baseline.pages.keys()]).toEqual(['/a']);
  });

  it('keeps lineages apart by tenant and by options', () => {
    const input = { url: 'https://a.test/', changes: true, webhook: 'https://hooks.test/1' };
    const request = crawlRequestSchema.parse(input);
    const other = crawlRequestSchema.parse({ ...input, limit: 5 });
    // The webhook is no part of the lineage; the crawl options are.
    const again = crawlRequestSchema.parse({ ...input, webhook: 'https://hooks.test/2' });
    expect(lineageOf(request, undefined)).toBe(lineageOf(again, undefined));
    expect(lineageOf(request, undefined)).not.toBe(lineageOf(other, undefined));
    expect(lineageOf(request, 'key-1')).not.toBe(lineageOf(request, 'key-2'));
  });
});
