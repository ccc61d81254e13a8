import { scrapeExtractionSettings } from '../extraction-settings.js';
import { pageCacheMemoFor } from '../page-cache-memo.js';
import type { ScrapeStage } from '../scrape-state.js';
import { serializeFetched, storedLength } from '../../codec/page-record.js';

/**
 * Writes the fetched page to the cache when the request and its formats allow it, with its text for the search
 * index. Only successful pages are cached: a 429 or a 5xx must not be served again for two days; nor an app shell
 * read without the browser (fastMode, the browser unavailable), which a later request would want rendered. The
 * extraction just made is remembered with the page, so the first hit needs none.
 */
export const cacheWrite: ScrapeStage = {
  name: 'cache-write',
  async run(state) {
    const { store, cache, page } = state;
    if (!store || !page || cache.state === 'hit' || !cache.writable) return;
    if (page.status < 200 || page.status >= 300 || page.clientRendered !== undefined) return;
    const stored = serializeFetched(page);
    const cachedAt = Date.now();
    const length = storedLength(stored);
    const search = state.searchText;
    await store.pages.put({
      key: cache.key,
      url: state.normalizedUrl,
      cachedAt,
      ...stored,
      ...(search ? { search } : {}),
    });
    const memo = pageCacheMemoFor(store);
    memo.remember(cache.key, cachedAt, length, page);
    const { extraction } = state;
    if (extraction) {
      const settings = scrapeExtractionSettings(state);
      await memo.extraction(cache.key, { cachedAt, length }, settings, () => Promise.resolve(extraction));
    }
    cache.cachedAt = cachedAt;
    cache.length = length;
  },
};
