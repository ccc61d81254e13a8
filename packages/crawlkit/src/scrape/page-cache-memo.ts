import { LRUCache } from 'lru-cache';

import type { Extraction, ExtractionSettings } from '../extraction/extraction.js';
import type { FetchedPage } from './fetched-page.js';
import { deserializeFetched, storedLength, type PageRecord } from '../codec/page-record.js';

/** One version of a page cache entry: what it parses to and what extraction made of it, per extraction settings. */
interface MemoEntry {
  cachedAt: number;
  /** Length of the stored value: with `cachedAt`, tells a rewritten entry from the one parsed here. */
  length: number;
  fetched: FetchedPage;
  extractions: Map<string, Extraction>;
  /** Approximate UTF-16 size of everything held, for the LRU's byte bound. */
  size: number;
}

const stringsSize = (values: readonly string[] | undefined) => values?.reduce((n, s) => n + s.length, 0) ?? 0;

function extractionSize(extraction: Extraction): number {
  return (
    (extraction.markdown?.length ?? 0) +
    (extraction.html?.length ?? 0) +
    stringsSize(extraction.links) +
    stringsSize(extraction.images) +
    stringsSize(extraction.discoveredLinks) +
    (extraction.attributes ? JSON.stringify(extraction.attributes).length : 0) +
    JSON.stringify(extraction.metadata).length
  );
}

/** A copy whose arrays a caller may change without touching the memo (strings are immutable). */
function copyExtraction(extraction: Extraction): Extraction {
  const copy: Extraction = { ...extraction, warnings: [...extraction.warnings], metadata: { ...extraction.metadata } };
  if (extraction.links) copy.links = [...extraction.links];
  if (extraction.images) copy.images = [...extraction.images];
  if (extraction.discoveredLinks) copy.discoveredLinks = [...extraction.discoveredLinks];
  if (extraction.attributes) copy.attributes = extraction.attributes.map((a) => ({ ...a, values: [...a.values] }));
  for (const [name, value] of Object.entries(copy.metadata)) {
    if (Array.isArray(value)) copy.metadata[name] = [...(value as unknown[])];
  }
  return copy;
}

export interface PageCacheMemoOptions {
  /** Page cache entries held. */
  maxEntries: number;
  /** Approximate characters held in all (parsed pages and their extractions). */
  maxSize: number;
}

/**
 * What this process made of page cache entries: the parsed fetch and its extraction per set of extraction
 * options. A cache hit of a page seen before (same key, same `cachedAt`) then skips JSON parsing and extraction,
 * which are most of a hit's cost. Entries are tied to the cache entry's version, so a page refreshed by another
 * process is parsed again; the page cache itself stays the source of truth (a memo entry is only used after the
 * store has answered the lookup).
 */
export class PageCacheMemo {
  readonly #lru: LRUCache<string, MemoEntry>;

  constructor(options: PageCacheMemoOptions = { maxEntries: 500, maxSize: 32 * 1024 ** 2 }) {
    this.#lru = new LRUCache<string, MemoEntry>({
      max: options.maxEntries,
      maxSize: options.maxSize,
      maxEntrySize: Math.max(1, Math.floor(options.maxSize / 8)),
      sizeCalculation: (entry) => Math.max(1, entry.size),
    });
  }

  /** The parsed page of a cache entry, parsed once per entry version. */
  fetched(key: string, page: PageRecord & { cachedAt: number }): FetchedPage {
    const length = storedLength(page);
    const entry = this.#entry(key, page.cachedAt, length);
    if (entry) return entry.fetched;
    const fetched = deserializeFetched(page);
    this.remember(key, page.cachedAt, length, fetched);
    return fetched;
  }

  /** Records a fetch that was just written to the cache (so the first hit is already fast). */
  remember(key: string, cachedAt: number, length: number, fetched: FetchedPage): void {
    const size = (fetched.text?.length ?? 0) + (fetched.body?.length ?? 0) + (fetched.screenshot?.length ?? 0);
    this.#lru.set(key, { cachedAt, length, fetched, extractions: new Map(), size });
  }

  /**
   * A cache entry rewritten as it was (a `304 Not Modified` confirmed it): its extractions move to its new version,
   * so the confirmed page is not extracted again.
   */
  confirm(
    key: string,
    from: { cachedAt: number; length: number },
    to: { cachedAt: number; length: number },
    fetched: FetchedPage,
  ): void {
    const entry = this.#entry(key, from.cachedAt, from.length);
    if (!entry) {
      this.remember(key, to.cachedAt, to.length, fetched);
      return;
    }
    this.#lru.set(key, { ...entry, cachedAt: to.cachedAt, length: to.length, fetched });
  }

  /**
   * The extraction of a cache entry for `settings`: memoized, or built by `build` and kept unless its extraction was
   * cut by the budget (the plain-text fallback, which a quieter moment may do better) or `keep` says no. Returns a
   * copy each time.
   */
  async extraction(
    key: string,
    version: { cachedAt: number; length: number },
    settings: ExtractionSettings,
    build: () => Promise<Extraction>,
    keep: () => boolean = () => true,
  ): Promise<Extraction> {
    const entry = this.#entry(key, version.cachedAt, version.length);
    // The settings are plain data: two requests with the same string get the same extraction.
    const fingerprint = entry ? JSON.stringify(settings) : '';
    const known = entry?.extractions.get(fingerprint);
    if (known) return copyExtraction(known);
    const built = await build();
    if (entry && !built.cut && keep()) {
      entry.extractions.set(fingerprint, copyExtraction(built));
      entry.size += extractionSize(built);
      // Set again so that the LRU accounts for the new size (it may evict the entry if it got too big).
      if (this.#lru.get(key) === entry) this.#lru.set(key, entry);
    }
    return built;
  }

  clear(): void {
    this.#lru.clear();
  }

  #entry(key: string, cachedAt: number, length: number): MemoEntry | undefined {
    const entry = this.#lru.get(key);
    return entry && entry.cachedAt === cachedAt && entry.length === length ? entry : undefined;
  }
}

const memos = new WeakMap<object, PageCacheMemo>();

/** The memo of the page cache `store` (one per store object, shared by every engine using it). */
export function pageCacheMemoFor(store: object): PageCacheMemo {
  let memo = memos.get(store);
  if (!memo) {
    memo = new PageCacheMemo();
    memos.set(store, memo);
  }
  return memo;
}
