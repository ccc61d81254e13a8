/**
 * The page-cache suite (`describePageCacheConformance`) as a driver author runs it: on a cache that implements only
 * what `PageCache` requires (no `touch`, no `keysOf`), and on the SQLite store's pages seen through that interface.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { describePageCacheConformance } from '../conformance.js';
import { createMemoryStore } from '../memory/memory-store.js';
import { createSqliteStore } from '../sqlite/sqlite-store.js';
import type { PageCache } from '../types.js';
import { useStores, type ConformanceStoreOptions, type PageCacheFactory } from './harness.js';

/** The required methods of `PageStore` and nothing more, on the memory store's pages. */
function minimalCache(options: ConformanceStoreOptions): PageCache {
  const store = createMemoryStore(options);
  const { pages } = store;
  return {
    kind: 'minimal',
    ephemeral: true,
    pages: {
      get: (key, lookup) => pages.get(key, lookup),
      put: (page) => pages.put(page),
      deleteByUrl: (url) => pages.deleteByUrl(url),
      clear: () => pages.clear(),
      prune: (prune) => pages.prune(prune),
      stats: () => pages.stats(),
    },
    close: () => store.close(),
  };
}

describePageCacheConformance('required methods only', minimalCache);

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describePageCacheConformance('the SQLite store as a page cache', async (options) => {
  const dir = mkdtempSync(join(tmpdir(), 'ck-page-cache-conformance-'));
  dirs.push(dir);
  const store = await createSqliteStore({ dir, ...options });
  return { kind: store.kind, ephemeral: store.ephemeral, pages: store.pages, close: () => store.close() };
});

describe("the suite's factory", () => {
  // As a driver author may write it: braces, and no `return`.
  const open = useStores((() => undefined) as unknown as PageCacheFactory);

  it('is told it returned nothing, not a store', async () => {
    await expect(open()).rejects.toThrow(
      "The conformance suite's factory returned undefined, not a store: it must return (or resolve to) a fresh",
    );
  });
});
