import { LRUCache } from 'lru-cache';

/** A page held in memory in front of the database. */
export interface HotPage {
  url: string;
  cachedAt: number;
  value: string;
  body?: Uint8Array;
  bytes: number;
  /**
   * The connection's `PRAGMA data_version` when this copy was known to match the database. While the version is
   * unchanged no other process has committed anything, so the copy is current without touching the disk.
   */
  validatedAt: number;
}

// Per-entry bookkeeping counted on top of the value, so that many tiny pages still respect `maxBytes`.
const ENTRY_OVERHEAD_BYTES = 128;

/** The LRU of recently read or written pages, bounded by entry count and bytes. */
export class PageHotTier {
  readonly #lru: LRUCache<string, HotPage>;

  constructor(maxEntries: number, maxBytes: number) {
    this.#lru = new LRUCache<string, HotPage>({
      max: maxEntries,
      maxSize: maxBytes,
      // One huge page must not flush everything else.
      maxEntrySize: Math.max(1, Math.floor(maxBytes / 8)),
      sizeCalculation: (page) => page.bytes + ENTRY_OVERHEAD_BYTES,
    });
  }

  get(key: string): HotPage | undefined {
    return this.#lru.get(key);
  }

  set(key: string, page: HotPage): void {
    // lru-cache refuses entries over maxEntrySize silently; drop any older copy so it cannot be served.
    if (page.bytes + ENTRY_OVERHEAD_BYTES > this.#lru.maxEntrySize) this.#lru.delete(key);
    else this.#lru.set(key, page);
  }

  delete(key: string): void {
    this.#lru.delete(key);
  }

  deleteWhere(predicate: (page: HotPage) => boolean): void {
    const doomed: string[] = [];
    for (const [key, page] of this.#lru.entries()) if (predicate(page)) doomed.push(key);
    for (const key of doomed) this.#lru.delete(key);
  }

  clear(): void {
    this.#lru.clear();
  }

  get size(): number {
    return this.#lru.size;
  }
}
