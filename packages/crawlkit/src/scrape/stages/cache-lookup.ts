import { checkUrlAgainstPolicy, redactUrl } from '@crawlkit/fetcher';
import type { Store } from '@crawlkit/store';

import { CrawlkitError, hasCrawlkitCode } from '../../errors.js';
import { cacheUnread, lockdownMiss, lockdownMissOf, noCachedData } from '../cache-only.js';
import type { FetchedPage } from '../fetched-page.js';
import { pageCacheMemoFor } from '../page-cache-memo.js';
import { conditionalHeaders } from '../revalidation.js';
import type { ScrapeStage } from '../scrape-state.js';
import { storedLength, type PageRecord } from '../../codec/page-record.js';

/**
 * Reads the page cache when the request and its formats allow it: a page younger than `maxAge` (and older than
 * `minAge`, when given) answers in place of a fetch; an older copy with validators makes the fetch conditional
 * (`state.revalidation`), as does any copy for a format or a change feed that takes only a confirmed one
 * (`cache.revalidateOnly`). An entry it cannot read is no copy (`readCopy`).
 * `minAge` with no such page is `SCRAPE_NO_CACHED_DATA`. With `lockdown` the cache is the only source, at any age: no
 * page is `SCRAPE_LOCKDOWN_CACHE_MISS`, never a fetch. Both, where the cache cannot answer at all (the replay engine,
 * options that never read it), say why (`cacheUnread`).
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
    if ((request.lockdown || request.minAge !== undefined) && (!store || !cache.readable)) throw cacheUnread(state);
    if (!store || !(cache.readable || cache.revalidateOnly)) return;
    // Read at any age: a copy past `maxAge` is not served, but its validators make the refetch conditional.
    const lookup: { minAge?: number } = {};
    if (request.minAge !== undefined) lookup.minAge = request.minAge;
    // This process's write of the key, if still committing, goes first: a scrape sees the page its last one kept.
    await state.ctx.cacheWrites.before(cache.key, state.signal);
    const found = await readEntry(store, cache.key, lookup, request.url);
    const read = found && readCopy(store, cache.key, found);
    // A copy fetched without what the request asks of the browser (`mobile: true` over HTTP, under the key of
    // `mobile: true`) answers only an engine that could not do better: one with the browser fetches the page as asked.
    const copy = read && (!read.unsupportedFeatures?.length || state.ctx.options.engine === 'http') ? read : undefined;
    const fresh =
      cache.readable &&
      found &&
      (request.lockdown || request.maxAge <= 0 || Date.now() - found.cachedAt <= request.maxAge);
    if (found && copy && fresh) {
      state.page = copy;
      checkUrlAgainstPolicy(state.page.url, policy);
      cache.state = 'hit';
      cache.cachedAt = found.cachedAt;
      cache.length = storedLength(found);
      return;
    }
    if (found && copy && request.minAge === undefined && cache.writable) {
      const page = copy;
      const headers = page.cachePolicy ? conditionalHeaders(page.cachePolicy, page.url) : {};
      if (page.cachePolicy && Object.keys(headers).length) {
        const length = storedLength(found);
        state.revalidation = { page, policy: page.cachePolicy, headers, cachedAt: found.cachedAt, length };
      }
    }
    if (request.lockdown) {
      throw found && !read ? lockdownMiss(request.url, 'unreadable') : await lockdownMissOf(state, read);
    }
    if (request.minAge !== undefined) throw noCachedData();
    cache.state = 'miss';
  },
};

/**
 * The page of a cache entry, or `undefined` when the entry cannot be read (damaged, or written by a newer crawlkit):
 * a cache entry is a copy, not data, so such an entry is no copy. The page is fetched again and its entry replaced,
 * rather than every scrape of it failing with `STORE_RECORD_INVALID` until the cache is cleared.
 */
function readCopy(store: Store, key: string, found: PageRecord & { cachedAt: number }): FetchedPage | undefined {
  try {
    return pageCacheMemoFor(store).fetched(key, found);
  } catch (error) {
    if (error instanceof CrawlkitError && error.code === 'STORE_RECORD_INVALID') return undefined;
    throw error;
  }
}

/**
 * The store's entry of `key`. A failure without a crawlkit code (a page cache of the user's: its network store down)
 * says it was the page cache's read, and of which page; the store's own errors (`STORE_IO`, `STORE_CLOSED`) pass as
 * they are.
 */
async function readEntry(store: Store, key: string, lookup: { minAge?: number }, url: string) {
  try {
    return await store.pages.get(key, lookup);
  } catch (error) {
    if (hasCrawlkitCode(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`The page cache (${store.kind}) could not read ${redactUrl(url)}: ${reason}`, { cause: error });
  }
}
