/**
 * The page-cache suite (`describePageCacheConformance`) as a driver author runs it: on a cache that implements only
 * what `PageCache` requires (no `touch`, no `keysOf`), and on the SQLite store's pages seen through that interface.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll } from 'vitest';

import { describePageCacheConformance } from '../conformance.js';
import { createMemoryStore } from '../memory/memory-store.js';
import { createSqliteStore } from '../sqlite/sqlite-store.js';
import type { PageCache } from '../types.js';
import type { ConformanceStoreOptions } from './harness.js';

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
