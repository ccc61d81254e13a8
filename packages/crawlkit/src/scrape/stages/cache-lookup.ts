import { CrawlkitError } from '../../errors.js';
import { pageCacheMemoFor } from '../page-cache-memo.js';
import type { ScrapeStage } from '../scrape-state.js';
import { storedLength } from '../../codec/page-record.js';

/**
 * Reads the page cache when the request and its formats allow it: a page younger than `maxAge` (and older than
 * `minAge`, when given) answers in place of a fetch. `minAge` with no such page is `SCRAPE_NO_CACHED_DATA`.
 */
export const cacheLookup: ScrapeStage = {
  name: 'cache-lookup',
  async run(state) {
    const { store, request, cache } = state;
    if (!store || !cache.readable) return;
    const lookup: { maxAge?: number; minAge?: number } = {};
    if (request.maxAge > 0) lookup.maxAge = request.maxAge;
    if (request.minAge !== undefined) lookup.minAge = request.minAge;
    const hit = await store.pages.get(cache.key, lookup);
    if (hit) {
      state.page = pageCacheMemoFor(store).fetched(cache.key, hit);
      cache.state = 'hit';
      cache.cachedAt = hit.cachedAt;
      cache.length = storedLength(hit);
      return;
    }
    if (request.minAge !== undefined) {
      throw new CrawlkitError(
        'SCRAPE_NO_CACHED_DATA',
        'No cached data available that meets the specified age requirements.',
      );
    }
    cache.state = 'miss';
  },
};
