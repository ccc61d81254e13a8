import { clearTimeout, setTimeout } from 'node:timers';
import { redactUrl } from '@crawlkit/fetcher';
import type { TellWarning } from '../warning-codes.js';

/**
 * How long a lookup of a key, or `close()`, waits for a cache write that has not settled: a page cache of the user's
 * that stopped answering (a network store that lost its connection) would otherwise hold them for ever. The same
 * grace as the HTTP engine's connections and the webhooks' `closeTimeoutMs` at close.
 */
export const LATE_WRITE_GRACE_MS = 2_000;

interface TrackedWrite {
  readonly url: string;
  readonly settled: Promise<void>;
}

/**
 * The page cache's writes a scrape hands its answer back before (the `cache-write` stage): a page's record is a
 * cache, not the scrape's result, so its commit (a body of megabytes into the store) is no part of the answer's time.
 * A lookup of the same key waits for its write (`before`), so a scrape of the same URL in this process sees the page
 * whatever the store; `close()` waits for all of them (`settled`) before the store closes; a write that fails is told
 * as a `CACHE_WRITE_FAILED` warning (the page is then fetched again by the next scrape, as after an eviction). Neither
 * waits longer than `graceMs` for a write: one that has not settled by then is given up, told by the same warning.
 */
export class LateCacheWrites {
  readonly #pending = new Map<string, TrackedWrite>();
  readonly #all = new Set<TrackedWrite>();
  readonly #warn: TellWarning;
  readonly #graceMs: number;

  constructor(warn: TellWarning, graceMs = LATE_WRITE_GRACE_MS) {
    this.#warn = warn;
    this.#graceMs = graceMs;
  }

  /** Tracks `write`, the cache writes of the page `key` of `url`, until it settles. */
  add(key: string, url: string, write: Promise<unknown>): void {
    const tracked: TrackedWrite = {
      url,
      settled: write.then(
        () => undefined,
        (error: unknown) => {
          // A write given up on already was told then: its late failure is no news.
          if (!this.#all.has(tracked)) return;
          const reason = error instanceof Error ? error.message : String(error);
          this.#warn('CACHE_WRITE_FAILED', `The page cache did not keep ${redactUrl(url)}: ${reason}`);
        },
      ),
    };
    this.#pending.set(key, tracked);
    this.#all.add(tracked);
    void tracked.settled.then(() => this.#forget(key, tracked));
  }

  /**
   * Resolves once the write of `key` still running, if any, has settled (undefined when there is none), or after
   * `graceMs`, the write then given up; rejects with `signal`'s reason when it aborts first (the scrape's timeout).
   */
  before(key: string, signal?: AbortSignal): Promise<void> | undefined {
    const tracked = this.#pending.get(key);
    if (!tracked) return undefined;
    return this.#wait([tracked], signal).then((late) => this.#giveUp(late));
  }

  /** Resolves once every write added so far has settled, or after `graceMs`, the writes left then given up. */
  async settled(): Promise<void> {
    const end = Date.now() + this.#graceMs;
    while (this.#all.size > 0) {
      const late = await this.#wait([...this.#all], undefined, end - Date.now());
      if (late.length > 0) return this.#giveUp(late);
    }
  }

  /** The writes of `writes` not settled within `ms` (none when all settled), rejecting if `signal` aborts first. */
  async #wait(writes: TrackedWrite[], signal?: AbortSignal, ms = this.#graceMs): Promise<TrackedWrite[]> {
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const late = new Promise<'late'>((resolve, reject) => {
      timer = setTimeout(() => resolve('late'), Math.max(0, ms));
      if (!signal) return;
      onAbort = () => reject(signal.reason as Error);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const outcome = await Promise.race([Promise.all(writes.map((w) => w.settled)), late]);
      return outcome === 'late' ? writes.filter((w) => this.#all.has(w)) : [];
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  #giveUp(writes: TrackedWrite[]): void {
    const left = writes.filter((w) => this.#all.delete(w));
    if (left.length === 0) return;
    for (const [key, tracked] of this.#pending) if (left.includes(tracked)) this.#pending.delete(key);
    const pages =
      left.length === 1 ? redactUrl(left[0]!.url) : `${left.length} pages (${redactUrl(left[0]!.url)}, ...)`;
    this.#warn(
      'CACHE_WRITE_FAILED',
      `The page cache did not keep ${pages}: the write had not settled after ${this.#graceMs} ms ` +
        '(a page cache that stopped answering?), and the engine no longer waits for it.',
    );
  }

  #forget(key: string, tracked: TrackedWrite): void {
    this.#all.delete(tracked);
    if (this.#pending.get(key) === tracked) this.#pending.delete(key);
  }
}
