import { AUTO_PRUNE_LOW_WATERMARK, pageBytes, pageQualifies } from '../page-rules.js';
import type { Lifecycle } from '../lifecycle.js';
import type { CachedPage, PageLookup, PageStore } from '../types.js';
import type { MemorySearchIndex } from './search.js';

interface Entry extends CachedPage {
  bytes: number;
}

/** Pages in a Map; insertion order is not age order (a `put` may carry any `cachedAt`), so eviction sorts. */
export class MemoryPageStore implements PageStore {
  readonly #life: Lifecycle;
  readonly #maxBytes: number;
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;

  readonly #search: MemorySearchIndex | undefined;

  constructor(life: Lifecycle, maxBytes: number, search?: MemorySearchIndex) {
    this.#life = life;
    this.#maxBytes = maxBytes;
    this.#search = search;
  }

  get(key: string, lookup?: PageLookup): Promise<CachedPage | undefined> {
    return this.#life.run(() => {
      const entry = this.#entries.get(key);
      if (!entry || !pageQualifies(entry.cachedAt, lookup, lookup?.now ?? Date.now())) return undefined;
      const page: CachedPage = { key: entry.key, url: entry.url, cachedAt: entry.cachedAt, value: entry.value };
      if (entry.body) page.body = entry.body;
      return page;
    });
  }

  put(page: CachedPage): Promise<void> {
    return this.#life.run(() => {
      this.#remove(page.key);
      const entry: Entry = { key: page.key, url: page.url, cachedAt: page.cachedAt, value: page.value, bytes: 0 };
      if (page.body) entry.body = page.body;
      entry.bytes = pageBytes(page);
      this.#entries.set(page.key, entry);
      this.#bytes += entry.bytes;
      this.#search?.putPage(page.key, page.cachedAt, page.search);
      if (this.#bytes > this.#maxBytes) this.#evictOldest(Math.floor(this.#maxBytes * AUTO_PRUNE_LOW_WATERMARK));
    });
  }

  touch(key: string, cachedAt: number): Promise<boolean> {
    return this.#life.run(() => {
      const entry = this.#entries.get(key);
      if (!entry) return false;
      entry.cachedAt = cachedAt;
      this.#search?.touchPage(key, cachedAt);
      return true;
    });
  }

  keysOf(url: string): Promise<string[]> {
    return this.#life.run(() => [...this.#entries.values()].filter((entry) => entry.url === url).map((e) => e.key));
  }

  deleteByUrl(url: string): Promise<number> {
    return this.#life.run(() => {
      let deleted = 0;
      for (const entry of [...this.#entries.values()]) {
        if (entry.url === url) deleted += this.#remove(entry.key);
      }
      return deleted;
    });
  }

  deleteByUrlPrefix(prefix: string, cachedBefore: number): Promise<number> {
    return this.#life.run(() => {
      let deleted = 0;
      for (const entry of [...this.#entries.values()]) {
        if (entry.url.startsWith(prefix) && entry.cachedAt < cachedBefore) deleted += this.#remove(entry.key);
      }
      return deleted;
    });
  }

  clear(): Promise<void> {
    return this.#life.run(() => {
      this.#entries.clear();
      this.#bytes = 0;
      this.#search?.clearPages();
    });
  }

  prune(options: { olderThan?: number; maxBytes?: number; now?: number }): Promise<number> {
    return this.#life.run(() => {
      let deleted = 0;
      if (options.olderThan !== undefined) {
        const cutoff = (options.now ?? Date.now()) - options.olderThan;
        for (const entry of [...this.#entries.values()]) {
          if (entry.cachedAt < cutoff) deleted += this.#remove(entry.key);
        }
      }
      if (options.maxBytes !== undefined) deleted += this.#evictOldest(options.maxBytes);
      return deleted;
    });
  }

  stats(): Promise<{ entries: number; bytes: number }> {
    return this.#life.run(() => {
      return { entries: this.#entries.size, bytes: this.#bytes };
    });
  }

  #remove(key: string): number {
    const entry = this.#entries.get(key);
    if (!entry) return 0;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
    this.#search?.removePage(key);
    return 1;
  }

  #evictOldest(maxBytes: number): number {
    if (this.#bytes <= maxBytes) return 0;
    const byAge = [...this.#entries.values()].sort((a, b) => a.cachedAt - b.cachedAt);
    let deleted = 0;
    for (const entry of byAge) {
      if (this.#bytes <= maxBytes) break;
      deleted += this.#remove(entry.key);
    }
    return deleted;
  }
}
