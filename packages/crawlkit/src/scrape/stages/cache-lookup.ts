import { checkUrlAgainstPolicy, redactUrl } from '@crawlkit/fetcher';

import { CrawlkitError } from '../../errors.js';
import { pageCacheMemoFor } from '../page-cache-memo.js';
import { conditionalHeaders } from '../revalidation.js';
import type { ScrapeStage } from '../scrape-state.js';
import { storedLength } from '../../codec/page-record.js';

/**
 * Reads the page cache when the request and its formats allow it: a page younger than `maxAge` (and older than
 * `minAge`, when given) answers in place of a fetch; an older copy with validators makes the fetch conditional
 * (`state.revalidation`), as does any copy for a format or a change feed that takes only a confirmed one
 * (`cache.revalidateOnly`).
 * `minAge` with no such page is `SCRAPE_NO_CACHED_DATA`. With `lockdown` the cache is the only source, at any age: no
 * page is `SCRAPE_LOCKDOWN_CACHE_MISS`, never a fetch.
 * The URL policy (the engine's, tightened by a job's) holds for the cache as for the network: a URL it refuses is
 * `URL_BLOCKED` before the cache is read, and so is a copy whose page ended at a refused URL (a redirect), though
 * another engine on the store, allowed more, cached it. Without a DNS query: a name is refused by its spelling here.
 */
export const cacheLookup: ScrapeStage = {
  name: 'cache-lookup',
  async run(state) {
    const { store, request, cache } = state;
    const policy = state.ctx.fetcher.urlPolicy;
    checkUrlAgainstPolicy(request.url, policy);
    if (request.lockdown && (!store || !cache.readable)) throw lockdownMiss(state.request.url, 'these options');
    if (!store || !(cache.readable || cache.revalidateOnly)) return;
    // Read at any age: a copy past `maxAge` is not served, but its validators make the refetch conditional.
    const lookup: { minAge?: number } = {};
    if (request.minAge !== undefined) lookup.minAge = request.minAge;
    const found = await store.pages.get(cache.key, lookup);
    const fresh =
      cache.readable &&
      found &&
      (request.lockdown || request.maxAge <= 0 || Date.now() - found.cachedAt <= request.maxAge);
    if (found && fresh) {
      state.page = pageCacheMemoFor(store).fetched(cache.key, found);
      checkUrlAgainstPolicy(state.page.url, policy);
      cache.state = 'hit';
      cache.cachedAt = found.cachedAt;
      cache.length = storedLength(found);
      return;
    }
    if (found && request.minAge === undefined && cache.writable) {
      const page = pageCacheMemoFor(store).fetched(cache.key, found);
      const headers = page.cachePolicy ? conditionalHeaders(page.cachePolicy, page.url) : {};
      if (page.cachePolicy && Object.keys(headers).length) {
        const length = storedLength(found);
        state.revalidation = { page, policy: page.cachePolicy, headers, cachedAt: found.cachedAt, length };
      }
    }
    if (request.lockdown) throw lockdownMiss(request.url, 'it');
    if (request.minAge !== undefined) {
      throw new CrawlkitError(
        'SCRAPE_NO_CACHED_DATA',
        'No cached data available that meets the specified age requirements.',
      );
    }
    cache.state = 'miss';
  },
};

/**
 * A `lockdown` request the cache cannot answer. `why` is `it` (nothing cached) or `these options` (options that keep
 * a page out of the cache: headers, actions, zero data retention, a format that needs a fresh page).
 */
function lockdownMiss(url: string, why: 'it' | 'these options'): CrawlkitError {
  const reason =
    why === 'it'
      ? 'the page cache holds no copy of it for these options'
      : 'these options never read the page cache (headers, actions, zero data retention, changeTracking, branding, ' +
        'a screenshot with its own viewport or quality, maxAge 0 or the stealth proxy)';
  return new CrawlkitError(
    'SCRAPE_LOCKDOWN_CACHE_MISS',
    `lockdown: ${redactUrl(url)} is served from the page cache only, with no network, and ${reason}. Scrape it once ` +
      'without lockdown first, or drop lockdown.',
  );
}
