// A closed check's pages are kept in chunks: a page of its detail reads only the chunks it returns, and gives what
// slicing the whole list gives, across chunk boundaries and with a status kept; a check stored whole (version 1) reads.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createSqliteStore, type Store } from '@crawlkit/store';
import { afterEach, describe, expect, it } from 'vitest';

import { PAGES_PER_CHUNK, pagesOf, readChunks } from './monitor-check-pages.js';
import { readCheck, writeCheck, type MonitorCheckPage, type MonitorCheckValue } from './monitor-store.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sqliteStore(): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'ck-check-pages-'));
  const store = await createSqliteStore({ dir });
  cleanups.push(
    () => rmSync(dir, { recursive: true, force: true }),
    () => store.close(),
  );
  return store;
}

const STATUSES = ['same', 'same', 'changed', 'new', 'same', 'removed', 'error'] as const;

function pages(count: number): MonitorCheckPage[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `page-${i}`,
    targetId: 'site',
    url: `https://example.com/${i}`,
    status: STATUSES[i % STATUSES.length]!,
    currentScrapeId: null,
    statusCode: 200,
    error: null,
    diff: i % STATUSES.length === 2 ? { text: `-old ${i}\n+new ${i}` } : null,
  }));
}

function check(all: MonitorCheckPage[]): MonitorCheckValue {
  const summary = { totalPages: all.length, same: 0, changed: 0, new: 0, removed: 0, error: 0 };
  for (const page of all) summary[page.status]++;
  return {
    monitorId: 'monitor-1',
    trigger: 'manual',
    scheduledFor: 1_000,
    startedAt: 1_000,
    jobIds: ['job-1'],
    skipped: [],
    errors: [],
    meta: [{ id: 'site', type: 'crawl' }],
    slots: [0],
    closed: { status: 'completed', finishedAt: 2_000, summary, pages: all },
  };
}

/** The store, counting the reads of chunks of pages. */
function counted(store: Store): { store: Store; reads: () => number } {
  let reads = 0;
  const history = {
    latest: (url: string, tag: string) => {
      if (tag === 'crawlkit:monitor-check-pages') reads++;
      return store.history.latest(url, tag);
    },
    append: store.history.append.bind(store.history),
  };
  return { store: { ...store, history }, reads: () => reads };
}

describe('the pages of a closed check, in chunks', () => {
  it('are written a chunk at a time and read back as the whole list sliced, reading only the chunks returned', async () => {
    const store = await sqliteStore();
    const all = pages(PAGES_PER_CHUNK * 2 + 234);
    await writeCheck(store, 'check-1', check(all));
    const stored = (await readCheck(store, 'check-1'))!.closed!;
    expect(stored.pages).toBeUndefined();
    expect(stored.chunks).toHaveLength(3);
    expect(stored.chunks!.reduce((n, c) => n + c.same + c.changed + c.new + c.removed + c.error, 0)).toBe(all.length);

    const queries = [
      { skip: 0, limit: 100 },
      { skip: PAGES_PER_CHUNK - 10, limit: 20 },
      { skip: PAGES_PER_CHUNK * 2 + 200, limit: 1000 },
      { skip: 5_000, limit: 10 },
      { skip: 0, limit: 1000, status: 'changed' as const },
      { skip: 70, limit: 100, status: 'changed' as const },
      { skip: 0, limit: 1000, status: 'error' as const },
    ];
    for (const query of queries) {
      expect(await readChunks(store, 'check-1', stored, query)).toEqual(pagesOf(all, query));
    }
    const spy = counted(store);
    await readChunks(spy.store, 'check-1', stored, { skip: PAGES_PER_CHUNK * 2 + 10, limit: 100 });
    expect(spy.reads()).toBe(1);
  });

  it('reads a check stored with its pages whole (codec version 1)', async () => {
    const store = await sqliteStore();
    const all = pages(40);
    const value = JSON.stringify({ v: 1, ...check(all) });
    await store.history.append({ url: 'check-old', tag: 'crawlkit:monitor-check', scrapedAt: 2_000, value });
    const stored = (await readCheck(store, 'check-old'))!.closed!;
    expect(stored.pages).toHaveLength(40);
    const query = { skip: 2, limit: 3, status: 'same' as const };
    expect(await readChunks(store, 'check-old', stored, query)).toEqual(pagesOf(all, query));
  });
});
