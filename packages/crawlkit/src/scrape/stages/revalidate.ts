import { serializeFetched, storedLength } from '../../codec/page-record.js';
import type { FetchedPage } from '../fetched-page.js';
import { pageCacheMemoFor } from '../page-cache-memo.js';
import { afterNotModified } from '../revalidation.js';
import type { ScrapeStage } from '../scrape-state.js';
import { fetchStage } from './fetch.js';

/**
 * Settles a conditional fetch (`state.revalidation`). A `304 Not Modified` that confirms the cached copy serves it
 * (`cacheState: 'revalidated'`, billed as a cache hit): the entry is written again with the 304's headers and a new
 * `cachedAt` (the next `maxAge` counts from now), and its memoised extractions are kept. A 304 that does not match
 * the copy is fetched again without conditions. Any other answer is a page like any fetch.
 */
export const revalidateStage: ScrapeStage = {
  name: 'revalidate',
  async run(state) {
    const { revalidation, page, store, cache } = state;
    if (!revalidation || !page || page.status !== 304) return;
    const settled = afterNotModified(revalidation.policy, revalidation.page.url, page);
    if (!settled.confirmed || !store) {
      state.revalidation = undefined;
      state.page = undefined;
      await fetchStage.run(state);
      return;
    }
    const confirmed: FetchedPage = { ...revalidation.page, cachePolicy: settled.policy };
    const stored = serializeFetched(confirmed);
    const cachedAt = Date.now();
    const length = storedLength(stored);
    await store.pages.put({ key: cache.key, url: state.normalizedUrl, cachedAt, ...stored });
    pageCacheMemoFor(store).confirm(
      cache.key,
      { cachedAt: revalidation.cachedAt, length: revalidation.length },
      { cachedAt, length },
      confirmed,
    );
    state.page = confirmed;
    state.judgedExtraction = undefined;
    cache.state = 'revalidated';
    cache.cachedAt = cachedAt;
    cache.length = length;
  },
};
