/**
 * What a request that asks for the page cache only (`lockdown`, `minAge`) is told when the cache cannot answer it:
 * which of its options keep the cache unread, or (`lockdown`) which options the URL's copies were made with.
 */
import { redactUrl } from '@crawlkit/fetcher';

import { CrawlkitError } from '../errors.js';
import { formatsNotReadingCache } from '../formats/registry.js';
import type { ScrapeState } from './scrape-state.js';

const SCRAPE_FIRST = 'Scrape it once without lockdown first, or drop lockdown.';
const NO_CACHED_DATA = 'No cached data available that meets the specified age requirements.';

/**
 * The options of the request that keep the page cache from answering it (`canReadCache`, zero data retention),
 * named: headers by their names, never their values.
 */
export function optionsNotReadingCache(state: Pick<ScrapeState, 'request' | 'context'>): string[] {
  const { request, context } = state;
  const named: string[] = [];
  if (context.zeroDataRetention) named.push('zeroDataRetention');
  const headers = Object.keys(request.headers ?? {});
  if (headers.length > 0) named.push(`headers (${headers.join(', ')})`);
  if ((request.actions?.length ?? 0) > 0) named.push('actions');
  if (request.parsers.some((p) => p.type === 'pdf' && p.maxPages !== undefined)) named.push('a pdf parser maxPages');
  if (request.proxy === 'stealth') named.push("proxy 'stealth'");
  if (request.maxAge === 0 && request.minAge === undefined) named.push('maxAge 0');
  for (const type of formatsNotReadingCache(request.formats)) {
    named.push(type === 'screenshot' ? 'a screenshot with its own viewport or quality' : `the ${type} format`);
  }
  return named;
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
    why = `these options never read the page cache: ${named.join(', ')}. Drop them, or drop ${option}.`;
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
