import { redactUrl } from '@crawlkit/fetcher';

/**
 * The page cache's writes a scrape hands its answer back before (the `cache-write` stage): a page's record is a
 * cache, not the scrape's result, so its commit (a body of megabytes into the store) is no part of the answer's time.
 * A lookup of the same key waits for its write (`before`), so a scrape of the same URL in this process sees the page
 * whatever the store; `close()` waits for all of them (`settled`) before the store closes; a write that fails is told
 * as a `CACHE_WRITE_FAILED` warning (the page is then fetched again by the next scrape, as after an eviction).
 */
export class LateCacheWrites {
  readonly #pending = new Map<string, Promise<void>>();
  readonly #all = new Set<Promise<void>>();
  readonly #warn: (code: string, message: string) => void;

  constructor(warn: (code: string, message: string) => void) {
    this.#warn = warn;
  }

  /** Tracks `write`, the cache writes of the page `key` of `url`, until it settles. */
  add(key: string, url: string, write: Promise<unknown>): void {
    const tracked: Promise<void> = write.then(
      () => undefined,
      (error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        this.#warn('CACHE_WRITE_FAILED', `The page cache did not keep ${redactUrl(url)}: ${reason}`);
      },
    );
    this.#pending.set(key, tracked);
    this.#all.add(tracked);
    void tracked.then(() => {
      this.#all.delete(tracked);
      if (this.#pending.get(key) === tracked) this.#pending.delete(key);
    });
  }

  /** Resolves once the write of `key` still running, if any, has settled (at once when there is none). */
  before(key: string): Promise<void> | undefined {
    return this.#pending.get(key);
  }

  /** Resolves once every write added so far has settled. */
  async settled(): Promise<void> {
    while (this.#all.size > 0) await Promise.all(this.#all);
  }
}
