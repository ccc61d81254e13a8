/**
 * What a request that asks for the page cache only (`lockdown`, `minAge`) is told when the cache cannot answer it:
 * which of its options keep the cache unread, or (`lockdown`) which options the URL's copies were made with.
 */
import { redactUrl } from '@crawlkit/fetcher';

import { CrawlkitError } from '../errors.js';
import { cacheReadBlockers } from './cache-policy.js';
import type { FetchedPage } from './fetched-page.js';
import type { ScrapeState } from './scrape-state.js';

const SCRAPE_FIRST = 'Scrape it once without lockdown first, or drop lockdown.';
const NO_CACHED_DATA = 'No cached data available that meets the specified age requirements.';

/** The options of the request that keep the page cache from answering it: `cacheReadBlockers`, zero data retention. */
function optionsNotReadingCache(state: Pick<ScrapeState, 'request' | 'context'>): string[] {
  return [...(state.context.zeroDataRetention ? ['zeroDataRetention'] : []), ...cacheReadBlockers(state.request)];
}

/**
 * A request for the page cache only that the cache cannot answer at all: the replay engine reads none, or the
 * request's own options keep it unread. `SCRAPE_LOCKDOWN_CACHE_MISS` for `lockdown`, `SCRAPE_NO_CACHED_DATA` for
 * `minAge` (before, `minAge` was left aside there, and the page fetched, or served from the recording).
 */
export function cacheUnread(state: ScrapeState): CrawlkitError {
  const option = state.request.lockdown ? 'lockdown' : 'minAge';
  let why: string;
  if (state.ctx.options.engine === 'replay') {
    why = `the replay engine serves its recordings and reads no page cache: drop ${option}, replay opens no socket.`;
  } else {
    const named = optionsNotReadingCache(state);
    why =
      named.length > 0
        ? `these options never read the page cache: ${named.join(', ')}. Drop them, or drop ${option}.`
        : `this request never reads the page cache. Drop ${option}.`;
  }
  return option === 'lockdown' ? lockdownMiss(state.request.url, why) : noCachedData(why);
}

/** `minAge` found no copy old enough; `why`, when given, says why none could be. */
export function noCachedData(why?: string): CrawlkitError {
  const error = why === undefined ? NO_CACHED_DATA : `${NO_CACHED_DATA.slice(0, -1)}: ${why}`;
  return new CrawlkitError('SCRAPE_NO_CACHED_DATA', error);
}

/** `lockdown` found no copy it can serve: none (`it`), one it cannot read (`unreadable`), or `why`. */
export function lockdownMiss(url: string, why: 'it' | 'unreadable' | (string & {})): CrawlkitError {
  const text =
    why === 'it'
      ? `the page cache holds no copy of it for these options. ${SCRAPE_FIRST}`
      : why === 'unreadable'
        ? `its copy in the page cache cannot be read (damaged, or written by a newer crawlkit). ${SCRAPE_FIRST}`
        : why;
  return new CrawlkitError(
    'SCRAPE_LOCKDOWN_CACHE_MISS',
    `lockdown: ${redactUrl(url)} is served from the page cache only, with no network, and ${text}`,
  );
}

/** The most copies a `lockdown` miss names. */
const MAX_COPIES_NAMED = 5;

/** A part of the cache key (`cacheKey`) as the option that set it, given its value and the request's. */
const OPTION_OF: Record<string, (value: string, own: string) => string> = {
  scheme: (value) => `the URL over ${value}`,
  auth: (value, own) =>
    !value ? 'no credentials in the URL' : own ? 'other credentials in the URL' : 'credentials in the URL',
  tls: (value) => `skipTlsVerification: ${value === 'skip'}`,
  m: (value) => `mobile: ${value === '1'}`,
  ads: (value) => `blockAds: ${value === '1'}`,
  shot: (value) => (value === 'full' ? 'a full-page screenshot' : value === 'view' ? 'a screenshot' : 'no screenshot'),
  loc: (value) => (value ? `location.country '${value}'` : 'no location.country'),
  lang: (value) => (value ? `location.languages '${value}'` : 'no location.languages'),
  wait: (value) => `waitFor: ${value}`,
};

/** The parts of a cache key after its URL, by name (`m=1` is `m` → `1`). */
function keyParts(key: string, normalizedUrl: string): Map<string, string> | undefined {
  if (!key.startsWith(`${normalizedUrl}|`)) return undefined;
  const parts = key.slice(normalizedUrl.length + 1).split('|');
  return new Map(parts.map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)]));
}

/** How a copy's key differs from the request's: the options named, the request's own for the same parts. */
function differences(own: Map<string, string>, copy: Map<string, string>): { copy: string[]; own: string[] } {
  const found = { copy: [] as string[], own: [] as string[] };
  for (const [name, value] of copy) {
    const mine = own.get(name) ?? '';
    if (value === mine) continue;
    const option = OPTION_OF[name];
    // A part a later crawlkit adds is named, not shown: its value may say more than an option.
    found.copy.push(option ? option(value, mine) : `another ${name}`);
    if (option) found.own.push(option(mine, value));
  }
  return found;
}

/**
 * `lockdown` found no copy it may serve under the request's key. When the page cache holds the URL under other
 * options (another `mobile`, `waitFor`, a screenshot, `location`, ...), the miss names them, and the request's own,
 * so that the caller can ask as the copy was made; header values are never part of a key. A copy under the same key
 * fetched over HTTP without what the request asks of the browser (`read`) is named as such.
 */
export async function lockdownMissOf(state: ScrapeState, read: FetchedPage | undefined): Promise<CrawlkitError> {
  const { request, store, cache, normalizedUrl } = state;
  if (read?.unsupportedFeatures?.length) {
    const features = read.unsupportedFeatures.join(', ');
    return lockdownMiss(
      request.url,
      `its copy was fetched over HTTP without what this request asks of the browser (${features}), which only the ` +
        `http engine serves. ${SCRAPE_FIRST}`,
    );
  }
  const keys = (await store?.pages.keysOf?.(normalizedUrl).catch(() => undefined)) ?? [];
  const own = keyParts(cache.key, normalizedUrl);
  const copies: string[] = [];
  const asked = new Set<string>();
  for (const key of keys) {
    const parts = key === cache.key ? undefined : keyParts(key, normalizedUrl);
    if (!own || !parts) continue;
    const found = differences(own, parts);
    if (found.copy.length === 0) continue;
    copies.push(found.copy.join(', '));
    for (const option of found.own) asked.add(option);
  }
  if (copies.length === 0) return lockdownMiss(request.url, 'it');
  const named = copies.slice(0, MAX_COPIES_NAMED).join('; ');
  const more = copies.length > MAX_COPIES_NAMED ? ` (and ${copies.length - MAX_COPIES_NAMED} more)` : '';
  return lockdownMiss(
    request.url,
    `the page cache holds no copy of it for these options (${[...asked].join(', ')}), only copies made with other ` +
      `ones: ${named}${more}. Ask with the options of a copy, or scrape it once without lockdown with these.`,
  );
}
