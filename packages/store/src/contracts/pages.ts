/** The page cache: one entry per cache key, what a scrape fetched, its bytes kept beside it. */
import type { SearchText } from './search.js';

/** One cached scrape result. */
export interface CachedPage {
  /** Cache key: the normalised URL plus everything that changes the content (computed by the caller). */
  key: string;
  /** The normalised URL the key was derived from; used by `deleteByUrl` and diagnostics. */
  url: string;
  /** When the page was fetched. */
  cachedAt: number;
  /** Serialised payload. */
  value: string;
  /**
   * Bytes kept beside `value` as they are (a page's undecoded body): no backend decodes or re-encodes them, so a
   * page of many megabytes is stored without being turned into a string on the caller's thread. The array is
   * handed over: neither the caller nor the store changes it afterwards (a backend may keep and return it as is).
   */
  body?: Uint8Array;
  /**
   * The page's text for the search index, written with the page in one transaction (see `SearchIndex`). Without it
   * the page is not searchable (and text indexed for an earlier version of it is dropped). Never read back by `get`.
   */
  search?: SearchText;
}

export interface PageLookup {
  /** Only entries with `now - cachedAt <= maxAge` qualify. Absent: any age. */
  maxAge?: number;
  /** Only entries with `now - cachedAt >= minAge` qualify. Absent: any age. */
  minAge?: number;
  /** Clock override for tests. Default `Date.now()`. */
  now?: number;
  /**
   * The caller reads the entry once (a page's kept extraction, read back for a confirmed copy): a store with an
   * in-memory tier does not keep the copy read, which the next read finds on disk. Absent: the copy read is kept.
   */
  once?: boolean;
}

export interface PageStore {
  /**
   * The entry for `key` when it satisfies `lookup`, or `undefined`. A key holds one entry (the last `put`), so this
   * is also the newest one, including writes by other processes sharing the store.
   */
  get(key: string, lookup?: PageLookup): Promise<CachedPage | undefined>;
  /**
   * Writes (replaces) the entry for `page.key`. When the store has a size cap, a write that takes the total over it
   * evicts the oldest entries (by `cachedAt`).
   */
  put(page: CachedPage): Promise<void>;
  /**
   * Sets the `cachedAt` of the entry for `key` (its age, its place in the eviction order, and the time of its search
   * text), leaving its value, bytes and text as they are: a copy a `304 Not Modified` confirmed, which need not be
   * written again. Resolves false, changing nothing, when there is no such entry (the caller then writes it again
   * with `put`). Optional, so that a backend written for an older crawlkit keeps working: without it, each confirmed
   * copy is written again with `put`. Every driver of this repository has it.
   */
  touch?(key: string, cachedAt: number): Promise<boolean>;
  /**
   * The keys of the entries whose `url` is `url` (a page's copies under other options: what a `lockdown` miss names).
   * Optional, so that a backend written for an older crawlkit keeps working; every driver of this repository has it.
   */
  keysOf?(url: string): Promise<string[]>;
  /** Deletes every entry whose `url` is `url`. Returns how many were deleted. */
  deleteByUrl(url: string): Promise<number>;
  /**
   * Deletes the entries whose `url` starts with `prefix` (an ASCII string, such as `scrape:`) and whose `cachedAt` is
   * before `cachedBefore` (ms since the epoch). Returns how many were deleted. Optional, so that a backend written for
   * an older crawlkit keeps working: without it, such entries stay until the size cap evicts them.
   */
  deleteByUrlPrefix?(prefix: string, cachedBefore: number): Promise<number>;
  /** Deletes everything. */
  clear(): Promise<void>;
  /**
   * Deletes entries older than `olderThan` (ms of age), then the oldest entries until the total stored size
   * (each entry's `value` in UTF-8 plus its `body`) is at most `maxBytes`. Returns how many were deleted.
   */
  prune(options: { olderThan?: number; maxBytes?: number; now?: number }): Promise<number>;
  /** Number of entries and their total size (values in UTF-8 plus bodies), in bytes. */
  stats(): Promise<{ entries: number; bytes: number }>;
}
