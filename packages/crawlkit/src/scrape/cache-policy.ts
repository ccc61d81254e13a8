import { findFormat } from '../v2/formats.js';
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
>;

const hasEntries = (value: object | undefined) => value !== undefined && Object.keys(value).length > 0;
const hasMaxPages = (o: CacheRelevantOptions) => o.parsers.some((p) => p.type === 'pdf' && p.maxPages !== undefined);
/** A screenshot with its own viewport or quality: the key has only the screenshot kind, so such pages stay out. */
const hasShotSettings = (o: CacheRelevantOptions) => {
  const shot = findFormat(o.formats, 'screenshot');
  return shot !== undefined && (shot.viewport !== undefined || shot.quality !== undefined);
};

/**
 * Whether the cache may answer: not for change tracking or branding (they need a fresh page), `maxAge: 0`,
 * custom headers or actions (sensitive), a PDF page cap, a screenshot viewport or quality, or the stealth proxy.
 */
export function canReadCache(o: CacheRelevantOptions): boolean {
  if (o.formats.some((f) => f.type === 'changeTracking' || f.type === 'branding')) return false;
  if (o.maxAge === 0 && o.minAge === undefined) return false;
  if (hasEntries(o.headers) || (o.actions?.length ?? 0) > 0) return false;
  if (hasMaxPages(o) || hasShotSettings(o)) return false;
  return o.proxy !== 'stealth';
}

/**
 * Whether the fetched page may be stored: never with headers, actions, a page cap, a screenshot viewport or quality
 * (its screenshot would be served to requests without them) or zero data retention.
 */
export function canWriteCache(o: CacheRelevantOptions, zeroDataRetention: boolean): boolean {
  if (!o.storeInCache || zeroDataRetention) return false;
  if (hasEntries(o.headers) || (o.actions?.length ?? 0) > 0) return false;
  return !hasMaxPages(o) && !hasShotSettings(o);
}

/**
 * The cache key: the normalised URL plus everything that changes what the fetch returns. Location languages are
 * order-insensitive.
 */
export function cacheKey(normalizedUrl: string, o: CacheRelevantOptions): string {
  const shot = findFormat(o.formats, 'screenshot');
  const parts = [
    normalizedUrl,
    `m=${o.mobile ? 1 : 0}`,
    `ads=${o.blockAds ? 1 : 0}`,
    `shot=${shot ? (shot.fullPage ? 'full' : 'view') : 'none'}`,
    `loc=${o.location?.country ?? ''}`,
    `lang=${[...(o.location?.languages ?? [])]
      .map((l) => l.toLowerCase())
      .sort()
      .join(',')}`,
    `wait=${o.waitFor}`,
  ];
  return parts.join('|');
}
