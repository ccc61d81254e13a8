import type { CachedPage, PageLookup } from './types.js';

/** Whether a page cached at `cachedAt` satisfies the `maxAge` / `minAge` window of `lookup` at time `now`. */
export function pageQualifies(cachedAt: number, lookup: PageLookup | undefined, now: number): boolean {
  if (lookup?.maxAge !== undefined && now - cachedAt > lookup.maxAge) return false;
  if (lookup?.minAge !== undefined && now - cachedAt < lookup.minAge) return false;
  return true;
}

/** The `cachedAt` bounds (inclusive) of `lookup` at time `now`, for range queries. */
export function cachedAtRange(lookup: PageLookup | undefined, now: number): { from: number; to: number } {
  return {
    from: lookup?.maxAge !== undefined ? now - lookup.maxAge : Number.MIN_SAFE_INTEGER,
    to: lookup?.minAge !== undefined ? now - lookup.minAge : Number.MAX_SAFE_INTEGER,
  };
}

/** UTF-8 size of a payload. */
export function byteLength(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

/** A page's size, what page caps and `stats().bytes` count: its value in UTF-8 plus its body. */
export function pageBytes(page: Pick<CachedPage, 'value' | 'body'>): number {
  return byteLength(page.value) + (page.body?.byteLength ?? 0);
}

/**
 * Automatic eviction (the store's `maxPageBytes`) frees down to this share of the cap, so a store at its cap does
 * not evict on every write.
 */
export const AUTO_PRUNE_LOW_WATERMARK = 0.9;
