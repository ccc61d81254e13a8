// A monitor's checks past its retention leave the store as a check is added (the check, its chunks of pages and its
// slot, not only hidden from the list), oldest first, stopping at a slot another process has numbered and not written
// yet; deleting the monitor's records deletes every check. In the memory and SQLite stores (Redis: the store
// conformance suite holds `history.delete` for all three).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createMemoryStore, createSqliteStore, type Store } from '@crawlkit/store';
import { afterEach, describe, expect, it } from 'vitest';

import { PAGES_PER_CHUNK } from './monitor-check-pages.js';
import {
  addCheck,
  deleteMonitorRecords,
  listChecks,
  monitorCounters,
  readCheck,
  writeCheck,
  type MonitorCheckValue,
} from './monitor-store.js';

const DAY = 86_400_000;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const stores: [string, () => Promise<Store>][] = [
  [
    'memory',
    () => {
      const store = createMemoryStore();
      cleanups.push(() => store.close());
      return Promise.resolve(store);
    },
  ],
  [
    'sqlite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ck-monitor-store-'));
      const store = await createSqliteStore({ dir });
      cleanups.push(
        () => rmSync(dir, { recursive: true, force: true }),
        () => store.close(),
      );
      return store;
    },
  ],
];

function check(startedAt: number, pages: number): MonitorCheckValue {
  const all = Array.from({ length: pages }, (_, i) => ({
    id: `page-${i}`,
    targetId: 't',
    url: `https://example.com/${i}`,
    status: 'same' as const,
    currentScrapeId: null,
    statusCode: 200,
    error: null,
    diff: null,
  }));
  const summary = { totalPages: pages, same: pages, changed: 0, new: 0, removed: 0, error: 0 };
  return {
    monitorId: 'm',
    trigger: 'scheduled',
    scheduledFor: startedAt,
    startedAt,
    jobIds: [],
    skipped: [],
    errors: [],
    meta: [{ id: 't', type: 'crawl' }],
    slots: [0],
    closed: { status: 'completed', finishedAt: startedAt + 1, summary, pages: all },
  };
}

/** Whether any record of the check (itself, a chunk of its pages) is still in the store. */
async function kept(store: Store, checkId: string): Promise<boolean> {
  const head = await store.history.latest(checkId, 'crawlkit:monitor-check');
  const chunk = await store.history.latest(`${checkId}#0`, 'crawlkit:monitor-check-pages');
  return head !== undefined || chunk !== undefined;
}

async function added(store: Store, id: string, startedAt: number, retentionDays = 1): Promise<void> {
  await writeCheck(store, id, check(startedAt, PAGES_PER_CHUNK + 1));
  await addCheck(store, 'm', id, startedAt, retentionDays);
}

const list = async (store: Store) => {
  const ids: string[] = [];
  for await (const id of listChecks(store, 'm', 365)) ids.push(id);
  return ids;
};

describe.each(stores)('retention of a monitor check (%s store)', (_name, open) => {
  it('deletes the checks past retentionDays, with their pages and slots, as a check is added', async () => {
    const store = await open();
    const now = Date.now();
    await added(store, 'old-1', now - 3 * DAY, 30);
    await added(store, 'old-2', now - 2 * DAY, 30);
    expect(await list(store)).toEqual(['old-2', 'old-1']);
    // A retention of one day, at the next check: both leave the store, not only the list.
    await added(store, 'new-1', now, 1);
    expect(await kept(store, 'old-1')).toBe(false);
    expect(await kept(store, 'old-2')).toBe(false);
    expect(await store.history.latest('m#1', 'crawlkit:monitor-check-slot')).toBeUndefined();
    expect(await kept(store, 'new-1')).toBe(true);
    expect(await list(store)).toEqual(['new-1']);
  });

  it('stops at a slot numbered and not yet written (a check being added elsewhere), and takes it up later', async () => {
    const store = await open();
    const now = Date.now();
    await added(store, 'old-1', now - 3 * DAY);
    // Another process numbered slot 2 and has not written it yet.
    await monitorCounters(store).add('monitor-checks:m', 1);
    await added(store, 'old-3', now - 2 * DAY);
    await added(store, 'new-1', now);
    expect(await kept(store, 'old-1')).toBe(false);
    expect(await kept(store, 'old-3')).toBe(true);
    // Its check, once written, is old too: the next check takes both.
    await store.history.append({
      url: 'm#2',
      tag: 'crawlkit:monitor-check-slot',
      scrapedAt: now - 2 * DAY,
      value: JSON.stringify({ v: 1, id: 'late', at: now - 2 * DAY }),
    });
    await added(store, 'new-2', now);
    expect(await kept(store, 'old-3')).toBe(false);
    expect(await list(store)).toEqual(['new-2', 'new-1']);
  });

  it("deletes every check of a deleted monitor's records", async () => {
    const store = await open();
    await added(store, 'a', Date.now());
    await added(store, 'b', Date.now());
    await deleteMonitorRecords(store, 'm');
    expect(await kept(store, 'a')).toBe(false);
    expect(await kept(store, 'b')).toBe(false);
    expect(await readCheck(store, 'b')).toBeUndefined();
    expect(await list(store)).toEqual([]);
  });
});
