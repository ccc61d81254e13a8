import { pageCacheMemoFor } from '../page-cache-memo.js';
import { cachePolicyOf } from '../revalidation.js';
import type { ScrapeStage } from '../scrape-state.js';
import { serializeFetched, storedLength } from '../../codec/page-record.js';

/**
 * Writes the fetched page to the cache when the request and its formats allow it. Only successful pages are cached:
 * a 429 or a 5xx must not be served again for two days; nor an app shell read without the browser (fastMode, the
 * browser unavailable), which a later request would want rendered. A page served over HTTP with validators keeps its
 * caching rules, so a refetch past `maxAge` can be conditional.
 */
export const cacheWrite: ScrapeStage = {
  name: 'cache-write',
  async run(state) {
    const { store, cache, page } = state;
    if (!store || !page || cache.state === 'hit' || cache.state === 'revalidated' || !cache.writable) return;
    if (page.status < 200 || page.status >= 300 || page.clientRendered !== undefined) return;
    const cachedAt = Date.now();
    const cachePolicy = cachePolicyOf(page);
    if (cachePolicy) {
      page.cachePolicy = cachePolicy;
      page.fetchedAt = cachedAt;
    }
    const stored = serializeFetched(page);
    const length = storedLength(stored);
    await store.pages.put({ key: cache.key, url: state.normalizedUrl, cachedAt, ...stored });
    pageCacheMemoFor(store).remember(cache.key, cachedAt, length, page);
    cache.cachedAt = cachedAt;
    cache.length = length;
  },
};
