import { LRUCache } from 'lru-cache';

import type { BuiltContent, ContentSettings, FetchedContent } from './content.js';
import { deserializeFetched, storedLength, type SerializedFetch } from './serialize.js';

/** One version of a page cache entry: what it parses to and what extraction made of it, per content options. */
interface MemoEntry {
  cachedAt: number;
  /** Length of the stored value: with `cachedAt`, tells a rewritten entry from the one parsed here. */
  length: number;
  fetched: FetchedContent;
  contents: Map<string, BuiltContent>;
  /** Approximate UTF-16 size of everything held, for the LRU's byte bound. */
  size: number;
}

const stringsSize = (values: readonly string[] | undefined) => values?.reduce((n, s) => n + s.length, 0) ?? 0;

function contentSize(content: BuiltContent): number {
  return (
    (content.markdown?.length ?? 0) +
    (content.html?.length ?? 0) +
    stringsSize(content.links) +
    stringsSize(content.images) +
    stringsSize(content.discoveredLinks) +
    (content.attributes ? JSON.stringify(content.attributes).length : 0) +
    JSON.stringify(content.metadata).length
  );
}

/** A copy whose arrays a caller may change without touching the memo (strings are immutable). */
function copyContent(content: BuiltContent): BuiltContent {
  const copy: BuiltContent = { ...content, warnings: [...content.warnings], metadata: { ...content.metadata } };
  if (content.links) copy.links = [...content.links];
  if (content.images) copy.images = [...content.images];
  if (content.discoveredLinks) copy.discoveredLinks = [...content.discoveredLinks];
  if (content.attributes) copy.attributes = content.attributes.map((a) => ({ ...a, values: [...a.values] }));
  for (const [name, value] of Object.entries(copy.metadata)) {
    if (Array.isArray(value)) copy.metadata[name] = [...(value as unknown[])];
  }
  return copy;
}

export interface ContentMemoOptions {
  /** Page cache entries held. */
  maxEntries: number;
  /** Approximate characters held in all (parsed pages and their extracted contents). */
  maxSize: number;
}

/**
 * What this process made of page cache entries: the parsed fetch and its extracted content per set of content
 * options. A cache hit of a page seen before (same key, same `cachedAt`) then skips JSON parsing and extraction,
 * which are most of a hit's cost. Entries are tied to the cache entry's version, so a page refreshed by another
 * process is parsed again; the page cache itself stays the source of truth (a memo entry is only used after the
 * store has answered the lookup).
 */
export class ContentMemo {
  readonly #lru: LRUCache<string, MemoEntry>;

  constructor(options: ContentMemoOptions = { maxEntries: 500, maxSize: 32 * 1024 ** 2 }) {
    this.#lru = new LRUCache<string, MemoEntry>({
      max: options.maxEntries,
      maxSize: options.maxSize,
      maxEntrySize: Math.max(1, Math.floor(options.maxSize / 8)),
      sizeCalculation: (entry) => Math.max(1, entry.size),
    });
  }

  /** The parsed content of a cache entry, parsed once per entry version. */
  fetched(key: string, page: SerializedFetch & { cachedAt: number }): FetchedContent {
    const length = storedLength(page);
    const entry = this.#entry(key, page.cachedAt, length);
    if (entry) return entry.fetched;
    const fetched = deserializeFetched(page);
    this.remember(key, page.cachedAt, length, fetched);
    return fetched;
  }

  /** Records a fetch that was just written to the cache (so the first hit is already fast). */
  remember(key: string, cachedAt: number, length: number, fetched: FetchedContent): void {
    const size = (fetched.text?.length ?? 0) + (fetched.body?.length ?? 0) + (fetched.screenshot?.length ?? 0);
    this.#lru.set(key, { cachedAt, length, fetched, contents: new Map(), size });
  }

  /**
   * The content of a cache entry for `settings`: memoized, or built by `build` and kept unless its extraction was
   * cut by the budget (the plain-text fallback, which a quieter moment may do better). Returns a copy each time.
   */
  async content(
    key: string,
    version: { cachedAt: number; length: number },
    settings: ContentSettings,
    build: () => Promise<BuiltContent>,
  ): Promise<BuiltContent> {
    const entry = this.#entry(key, version.cachedAt, version.length);
    // The settings are plain data: two requests with the same string get the same content.
    const fingerprint = entry ? JSON.stringify(settings) : '';
    const known = entry?.contents.get(fingerprint);
    if (known) return copyContent(known);
    const built = await build();
    if (entry && !built.cut) {
      entry.contents.set(fingerprint, copyContent(built));
      entry.size += contentSize(built);
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

const memos = new WeakMap<object, ContentMemo>();

/** The memo of the page cache `store` (one per store object, shared by every engine using it). */
export function contentMemoFor(store: object): ContentMemo {
  let memo = memos.get(store);
  if (!memo) {
    memo = new ContentMemo();
    memos.set(store, memo);
  }
  return memo;
}
