import { describe, expect, it } from 'vitest';
import type { PageCache } from '../types.js';
import { createJob, useStores, type PageCacheFactory, type StoreFactory } from './harness.js';

/** A closed store refuses every call. */
export function describeLifecycleConformance(factory: StoreFactory): void {
  describe('lifecycle', () => {
    const open = useStores(factory);

    it('closes idempotently, then rejects every call with STORE_CLOSED', async () => {
      const store = await open();
      const id = await createJob(store);
      // A store that can tell whether it can be written (`writable`, SQLite's) says so of a store no one else holds.
      if (store.writable) await expect(store.writable()).resolves.toBeUndefined();
      await store.close();
      await store.close();
      const calls: Promise<unknown>[] = [
        store.pages.get('a'),
        store.pages.put({ key: 'a', url: 'u', cachedAt: 0, value: 'v' }),
        store.pages.stats(),
        store.jobs.get(id),
        store.jobs.list(),
        store.tasks.claim(id, 1),
        store.tasks.complete(id, { key: 'k', credits: 0 }),
        store.results.list(id, 0, 1),
        store.deliveries.due(0, 1),
        store.history.latest('u', ''),
        ...(store.writable ? [store.writable()] : []),
      ];
      for (const call of calls) await expect(call).rejects.toMatchObject({ code: 'STORE_CLOSED' });
    });

    itNamesItsKind(open);
  });
}

/** A closed page cache refuses every call of its pages; a cache that only caches pages is held to this too. */
export function describePageCacheLifecycleConformance(factory: PageCacheFactory): void {
  describe('lifecycle', () => {
    const open = useStores(factory);

    it('closes idempotently, then rejects every call of its pages with STORE_CLOSED', async () => {
      const store = await open();
      await store.close();
      await store.close();
      const calls: Promise<unknown>[] = [
        store.pages.get('a'),
        store.pages.put({ key: 'a', url: 'u', cachedAt: 0, value: 'v' }),
        store.pages.deleteByUrl('u'),
        store.pages.clear(),
        store.pages.prune({ olderThan: 0 }),
        store.pages.stats(),
      ];
      for (const call of calls) await expect(call).rejects.toMatchObject({ code: 'STORE_CLOSED' });
    });

    itNamesItsKind(open);
  });
}

/** Every store and page cache names its kind and says whether it keeps anything. */
function itNamesItsKind(open: () => Promise<PageCache>): void {
  it('names its kind', async () => {
    const store = await open();
    expect(typeof store.kind).toBe('string');
    expect(store.kind.length).toBeGreaterThan(0);
    expect(typeof store.ephemeral).toBe('boolean');
  });
}
