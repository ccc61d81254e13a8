import { createHash } from 'node:crypto';

import {
  formatsCacheKey,
  formatsNotReadingCache,
  formatsRevalidateCache,
  formatsWriteCache,
} from '../formats/registry.js';
import type { ScrapeOptions } from '../v2/scrape-options.js';

/** The options of a scrape that decide whether and how the page cache is used (reference §8). */
export type CacheRelevantOptions = Pick<
  ScrapeOptions,
  | 'formats'
  | 'maxAge'
  | 'minAge'
  | 'headers'
  | 'actions'
  | 'parsers'
  | 'proxy'
  | 'storeInCache'
  | 'mobile'
  | 'blockAds'
  | 'location'
  | 'waitFor'
  | 'skipTlsVerification'
>;

const hasEntries = (value: object | undefined) => value !== undefined && Object.keys(value).length > 0;
const hasMaxPages = (o: CacheRelevantOptions) => o.parsers.some((p) => p.type === 'pdf' && p.maxPages !== undefined);

/** What keeps a cached copy from answering whatever its age: custom headers or actions (sensitive), a PDF page cap. */
const personal = (o: CacheRelevantOptions) => hasEntries(o.headers) || (o.actions?.length ?? 0) > 0 || hasMaxPages(o);

/**
 * Whether the cache may answer: not for `maxAge: 0`, custom headers or actions, a PDF page cap, the stealth proxy, or
 * a format that needs a fresh page (change tracking, branding, a screenshot with its own viewport or quality).
 */
export function canReadCache(o: CacheRelevantOptions): boolean {
  return cacheReadBlockers(o).length === 0;
}

/**
 * The options that keep the cache from answering (`canReadCache`), named for a message: headers by their names,
 * never their values. Empty when the cache may answer.
 */
export function cacheReadBlockers(o: CacheRelevantOptions): string[] {
  const named: string[] = [];
  if (hasEntries(o.headers)) named.push(`headers (${Object.keys(o.headers!).join(', ')})`);
  if ((o.actions?.length ?? 0) > 0) named.push('actions');
  if (hasMaxPages(o)) named.push('a pdf parser maxPages');
  if (o.proxy === 'stealth') named.push("proxy 'stealth'");
  if (o.maxAge === 0 && o.minAge === undefined) named.push('maxAge 0');
  for (const type of formatsNotReadingCache(o.formats)) {
    named.push(type === 'screenshot' ? 'a screenshot with its own viewport or quality' : `the ${type} format`);
  }
  return named;
}

/**
 * Whether a cached copy may answer once the site confirms it (a `304` to a conditional refetch) when it may not by
 * its age (`canReadCache`): for a format that needs a fresh page and takes a confirmed one (change tracking). Not
 * for `maxAge: 0`, `minAge`, or what keeps the cache from answering otherwise.
 */
export function canRevalidateCache(o: CacheRelevantOptions): boolean {
  if (o.maxAge === 0 || o.minAge !== undefined) return false;
  return !personal(o) && o.proxy !== 'stealth' && formatsRevalidateCache(o.formats);
}

/**
 * Whether the fetched page may be stored: never with headers, actions, a page cap, a format whose page must not be
 * served to others (a screenshot with its own viewport or quality) or zero data retention.
 */
export function canWriteCache(o: CacheRelevantOptions, zeroDataRetention: boolean): boolean {
  return o.storeInCache && !zeroDataRetention && !personal(o) && formatsWriteCache(o.formats);
}

/**
 * Who the page is fetched as, beyond its normalised URL: the scheme (an `http:` answer never serves `https:`), the
 * credentials in the URL (hashed: a page fetched as `user:pw@` never serves a request without them, and the key
 * keeps no password), and whether TLS was verified (a page fetched with verification off never serves a request
 * that asks for it).
 */
function fetchIdentity(url: string, skipTlsVerification: boolean): string[] {
  let scheme = '';
  let auth = '';
  try {
    const parsed = new URL(url);
    scheme = parsed.protocol.replace(/:$/, '');
    if (parsed.username || parsed.password) {
      auth = createHash('sha256').update(`${parsed.username}:${parsed.password}`).digest('hex').slice(0, 16);
    }
  } catch {
    // an unparsable URL never reaches the cache (validation refuses it); the key still differs from any other
  }
  return [`scheme=${scheme}`, `auth=${auth}`, `tls=${skipTlsVerification ? 'skip' : 'verify'}`];
}

/**
 * The cache key: the normalised URL plus everything that changes what the fetch returns: who the page is fetched
 * as (`fetchIdentity`), the emulation (mobile, location; languages order-insensitive), ad blocking, the wait, and
 * the formats' own parts (a screenshot's kind).
 */
export function cacheKey(url: string, normalizedUrl: string, o: CacheRelevantOptions): string {
  const parts = [
    normalizedUrl,
    ...fetchIdentity(url, o.skipTlsVerification ?? true),
    `m=${o.mobile ? 1 : 0}`,
    `ads=${o.blockAds ? 1 : 0}`,
    ...formatsCacheKey(o.formats),
    `loc=${o.location?.country ?? ''}`,
    `lang=${[...(o.location?.languages ?? [])]
      .map((l) => l.toLowerCase())
      .sort()
      .join(',')}`,
    `wait=${o.waitFor}`,
  ];
  return parts.join('|');
}
