import { scrapeExtractionSettings } from '../extraction-settings.js';
import { pageCacheMemoFor } from '../page-cache-memo.js';
import { pageGone } from '../page-status.js';
import { cachePolicyOf } from '../revalidation.js';
import type { ScrapeStage } from '../scrape-state.js';
import { storedExtractionKey, writeStoredExtraction } from '../stored-extraction.js';
import { serializeFetched, storedLength } from '../../codec/page-record.js';

/**
 * Writes the fetched page to the cache when the request and its formats allow it, with its text for the search
 * index. Only successful pages are cached: a 429 or a 5xx must not be served again for two days; nor an app shell
 * read without the browser (fastMode, the browser unavailable), which a later request would want rendered. The
 * extraction just made is remembered with the page, so the first hit needs none. A page served over HTTP with
 * validators keeps its caching rules, so a refetch past `maxAge` can be conditional, and its extraction in the page
 * cache too (`stored-extraction.ts`), so a 304 in another process needs none either. A page the site says is gone
 * (`pageGone`) takes its cached copies with it, and so their text out of the search index: a search must not find,
 * nor a later scrape serve, a page deleted since it was stored. The page's writes are not awaited: the answer goes
 * back before they commit (`LateCacheWrites`).
 */
export const cacheWrite: ScrapeStage = {
  name: 'cache-write',
  async run(state) {
    const { store, cache, page } = state;
    if (!store || !page || cache.state === 'hit' || !cache.writable) return;
    if (pageGone(page.status)) {
      await store.pages.deleteByUrl(state.normalizedUrl);
      return;
    }
    if (page.status < 200 || page.status >= 300 || page.clientRendered !== undefined) return;
    const cachedAt = Date.now();
    const memo = pageCacheMemoFor(store);
    if (cache.state === 'revalidated' && cache.unchanged && (await store.pages.touch?.(cache.key, cachedAt))) {
      // The copy a 304 confirmed, as stored: only its time moves (no rewrite of its bytes or its search text).
      const length = cache.length!;
      memo.confirm(cache.key, { cachedAt: cache.cachedAt!, length }, { cachedAt, length }, page);
      cache.cachedAt = cachedAt;
      // Its kept extraction ages with it: older, it would be evicted or pruned first, and extracted again.
      const keptKey = cache.keptKey ?? storedExtractionKey(state, scrapeExtractionSettings(state));
      if (keptKey) await store.pages.touch?.(keptKey, cachedAt);
      return;
    }
    const cachePolicy = cache.state === 'revalidated' ? undefined : cachePolicyOf(page);
    if (cachePolicy) {
      page.cachePolicy = cachePolicy;
      page.fetchedAt = cachedAt;
    }
    const stored = serializeFetched(page);
    const length = storedLength(stored);
    const search = state.searchText;
    // Not awaited: committed after the answer (`LateCacheWrites`); the store answers a read of the key meanwhile.
    const writes: Promise<void>[] = [
      settled(() =>
        store.pages.put({
          key: cache.key,
          url: state.normalizedUrl,
          cachedAt,
          ...stored,
          ...(search ? { search } : {}),
        }),
      ),
    ];
    if (cache.state === 'revalidated') {
      // The copy a 304 confirmed, stored again: its memoised extractions follow it to its new version.
      memo.confirm(cache.key, { cachedAt: cache.cachedAt!, length: cache.length! }, { cachedAt, length }, page);
    } else {
      memo.remember(cache.key, cachedAt, length, page);
      const { extraction } = state;
      if (extraction) {
        const settings = scrapeExtractionSettings(state);
        await memo.extraction(cache.key, { cachedAt, length }, settings, () => Promise.resolve(extraction));
        const keptKey = storedExtractionKey(state, settings);
        if (keptKey) writes.push(settled(() => writeStoredExtraction(state, keptKey, cachedAt, extraction)));
      }
    }
    cache.cachedAt = cachedAt;
    cache.length = length;
    state.ctx.cacheWrites.add(cache.key, state.request.url, Promise.all(writes));
  },
};

/**
 * The promise of a cache write, a page cache of the user's that throws instead of rejecting included: its failure is
 * a failed write (a `CACHE_WRITE_FAILED` warning), never the scrape's.
 */
function settled(write: () => Promise<void>): Promise<void> {
  return new Promise((resolve) => resolve(write()));
}
