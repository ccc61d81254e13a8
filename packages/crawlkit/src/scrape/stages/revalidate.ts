import type { FetchedPage } from '../fetched-page.js';
import { afterNotModified, sameValidators } from '../revalidation.js';
import type { ScrapeStage } from '../scrape-state.js';
import { fetchStage } from './fetch.js';

/**
 * Settles a conditional fetch (`state.revalidation`). A `304 Not Modified` that confirms the cached copy serves it
 * (`cacheState: 'revalidated'`, billed as a cache hit): the copy and its memoised extractions are used as they are,
 * and the cache write stores it again with the 304's headers and a new `cachedAt` (the next `maxAge` counts from
 * then). A 304 that does not match the copy is fetched again without conditions. Any other answer is a page like any
 * fetch.
 */
export const revalidateStage: ScrapeStage = {
  name: 'revalidate',
  async run(state) {
    const { revalidation, page, cache } = state;
    if (!revalidation || !page || page.status !== 304) return;
    const settled = afterNotModified(revalidation.policy, revalidation.page.url, page);
    if (!settled.confirmed) {
      state.revalidation = undefined;
      state.page = undefined;
      await fetchStage.run(state);
      return;
    }
    // With the same validators the stored copy stands as it is: the cache write then only moves its `cachedAt`.
    const unchanged =
      revalidation.page.cachePolicy !== undefined && sameValidators(revalidation.page.cachePolicy, settled.policy);
    const confirmed: FetchedPage = unchanged
      ? revalidation.page
      : { ...revalidation.page, cachePolicy: settled.policy };
    cache.unchanged = unchanged;
    state.page = confirmed;
    state.judgedExtraction = undefined;
    cache.state = 'revalidated';
    // The version the copy was read as: its memoised extraction serves it; the cache write moves it to the new one.
    cache.cachedAt = revalidation.cachedAt;
    cache.length = revalidation.length;
  },
};
