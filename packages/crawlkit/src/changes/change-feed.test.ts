import { createMemoryStore, type JobRecord, type Store } from '@crawlkit/store';
import { afterEach, describe, expect, it } from 'vitest';

import { storedJobCodec } from '../codec/records.js';
import { crawlRequestSchema } from '../v2/jobs.js';
import { completedChanges, finishChangeFeed, lineageOf, loadBaseline } from './change-feed.js';
import { contentHash } from './content-hash.js';
import { FeedPages } from './feed-pages.js';

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

  it('closes from the pages kept as they were stored when they are all of the results, else from the documents', async () => {
    store = createMemoryStore();
    const lineage = lineageOf(crawlRequestSchema.parse({ url: 'https://a.test/', tag: 't' }), undefined);
    const baselineHashes = async () =>
      [...(await loadBaseline(store, lineage)).pages].map(([key, { url, hash }]) => [key, url, hash]);
    const kept = (pages: [string, string][]) => {
      const feed = new FeedPages();
      pages.forEach(([path, markdown], i) =>
        feed.stored(i + 1, path, {
          sourceURL: `https://a.test${path}`,
          statusCode: 200,
          contentHash: contentHash(markdown),
        }),
      );
      return feed;
    };

    // One of the two results kept here (another process stored the other): the documents are read.
    const first = await crawlJob('00000000-0000-7000-8000-000000000003', { '/a': 'A', '/b': 'B' });
    await finishChangeFeed(store, first, kept([['/b', 'not what was stored']]));
    expect(await baselineHashes()).toEqual([
      ['/a', 'https://a.test/a', contentHash('A')],
      ['/b', 'https://a.test/b', contentHash('B')],
    ]);

    // All of them kept here (in the order of their results, whatever order they were kept in): the documents are not
    // read (the kept hash, unlike the stored one, is what the close wrote).
    const second = await crawlJob('00000000-0000-7000-8000-000000000004', { '/a': 'A', '/c': 'C' });
    const feed = new FeedPages();
    feed.stored(2, '/c', { sourceURL: 'https://a.test/c', statusCode: 200, contentHash: contentHash('kept') });
    feed.stored(1, '/a', { sourceURL: 'https://a.test/a', statusCode: 200, contentHash: contentHash('A') });
    await finishChangeFeed(store, second, feed);
    expect(await baselineHashes()).toEqual([
      ['/a', 'https://a.test/a', contentHash('A')],
      ['/c', 'https://a.test/c', contentHash('kept')],
    ]);
    expect(await completedChanges(store, second.id)).toEqual({
      previousJobId: first.id,
      removed: ['https://a.test/b'],
    });
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
