import { setImmediate } from 'node:timers';
import { AUTO_PRUNE_LOW_WATERMARK, cachedAtRange, pageBytes, pageQualifies } from '../page-rules.js';
import { StoreBusyError } from '../errors.js';
import type { CachedPage, PageLookup, PageStore } from '../types.js';
import type { SqliteDatabase } from './database.js';
import type { HotPage, PageHotTier } from './hot-tier.js';
import { indexPage } from './search.js';

/** The most touches a transaction waits for (a batch commits then, whether more are coming or not). */
const MAX_TOUCH_BATCH = 1024;

interface PendingPut {
  page: CachedPage;
  waiters: { resolve: () => void; reject: (error: unknown) => void }[];
}

interface PageRow {
  url: string;
  cached_at: number;
  bytes: number;
  value: string;
  body: Uint8Array | null;
}

/**
 * Pages on disk with an optional in-memory hot tier in front.
 *
 * Consistency rule of the hot tier: a hot copy is served only while it is known to match the database. Each copy
 * records the connection's `PRAGMA data_version` as it was written, or as it stood before it was read (the turn's
 * first reading, `dataVersionOfTurn`); that number changes only when another connection (another process) commits. If
 * it is unchanged, the copy is current; if it changed, one indexed read of the row's `cached_at` (without its value)
 * re-validates the copy or discards it. So `get` never returns a page another process has replaced, deleted, cleared or
 * evicted, and a hot hit costs no value read from disk.
 */
export class SqlitePageStore implements PageStore {
  readonly #db: SqliteDatabase;
  readonly #hot: PageHotTier | undefined;
  readonly #maxBytes: number;

  readonly #indexes: boolean;
  /** Puts waiting to be committed together (`put`), by key: a key put again in the same turn is written once. */
  readonly #puts = new Map<string, PendingPut>();
  /** Pages of puts handed to the database and not yet committed (waiting for another process's lock), by key. */
  readonly #committing = new Map<string, CachedPage>();
  /** Settles once the latest batch of puts is committed (or failed). */
  #lastFlush: Promise<void> = Promise.resolve();
  /** Touches waiting to be committed together (`touch`). */
  readonly #touches: {
    key: string;
    cachedAt: number;
    resolve: (touched: boolean) => void;
    reject: (error: unknown) => void;
  }[] = [];

  /** `indexes`: whether pages put with text are indexed (`SqliteStoreOptions.searchIndex`). */
  constructor(db: SqliteDatabase, hot: PageHotTier | undefined, maxBytes: number, indexes: boolean) {
    this.#db = db;
    this.#hot = hot;
    this.#maxBytes = maxBytes;
    this.#indexes = indexes;
  }

  get(key: string, lookup?: PageLookup): Promise<CachedPage | undefined> {
    return this.#db.use(() => {
      const now = lookup?.now ?? Date.now();
      const queued = this.#puts.get(key)?.page ?? this.#committing.get(key);
      if (queued) return pageQualifies(queued.cachedAt, lookup, now) ? { ...queued } : undefined;
      const hot = this.#hotCopy(key);
      if (hot) return pageQualifies(hot.cachedAt, lookup, now) ? toPage(key, hot) : undefined;
      const version = this.#hot ? this.#db.dataVersionOfTurn() : 0;
      const { from, to } = cachedAtRange(lookup, now);
      const row = this.#db.get<PageRow>(
        'SELECT url, cached_at, bytes, value, body FROM pages WHERE key = ? AND cached_at BETWEEN ? AND ?',
        key,
        from,
        to,
      );
      if (!row) return undefined;
      const page: HotPage = {
        url: row.url,
        cachedAt: row.cached_at,
        value: row.value,
        bytes: row.bytes,
        validatedAt: version,
      };
      if (row.body) page.body = row.body;
      if (!lookup?.once) this.#hot?.set(key, page);
      return toPage(key, page);
    });
  }

  /**
   * Queues the page: the puts of a turn of the event loop are committed together at its end, in one transaction (or
   * before any other call that reads or changes the pages, which sees them), and each resolves once committed. A
   * `get` of a key waiting is answered from the queue. So a caller that hands its answer back before the put resolves
   * (the cache write of a scrape) pays nothing for it on the way, and a batch's pages share their commits.
   */
  put(page: CachedPage): Promise<void> {
    // `use` checks the store is open and answers the commit's promise, which the caller awaits through it.
    return this.#db
      .use(
        () =>
          new Promise<void>((resolve, reject) => {
            if (this.#puts.size === 0) setImmediate(() => void this.flushPuts());
            const waiting = this.#puts.get(page.key);
            this.#puts.set(page.key, { page, waiters: [...(waiting?.waiters ?? []), { resolve, reject }] });
          }),
      )
      .then((committed) => committed);
  }

  /**
   * Commits the puts waiting now, in one transaction (each alone if that fails, so one bad page fails alone); settles
   * (never rejects) once they are committed or failed, and so do the batches before it.
   */
  flushPuts(): Promise<void> {
    if (this.#puts.size === 0) return this.#lastFlush;
    const batch = [...this.#puts.values()];
    this.#puts.clear();
    for (const { page } of batch) this.#committing.set(page.key, page);
    const settle = (puts: readonly PendingPut[], failed: { error: unknown } | undefined) => {
      for (const { page, waiters } of puts) {
        if (this.#committing.get(page.key) === page) this.#committing.delete(page.key);
        for (const { resolve, reject } of waiters) {
          if (failed) reject(failed.error);
          else resolve();
        }
      }
    };
    const write = (puts: readonly PendingPut[]) =>
      this.#db
        .useWrite(() => this.#writePages(puts.map((put) => put.page)))
        .catch((error: unknown) => {
          for (const { page } of puts) this.#hot?.delete(page.key);
          throw error;
        });
    const alone = (put: PendingPut) =>
      write([put]).then(
        () => settle([put], undefined),
        (error: unknown) => settle([put], { error }),
      );
    this.#lastFlush =
      batch.length === 1
        ? alone(batch[0]!)
        : write(batch).then(
            () => settle(batch, undefined),
            // A lock held past the busy timeout would fail each page again after as long: all fail at once.
            async (error: unknown) =>
              error instanceof StoreBusyError ? settle(batch, { error }) : void (await Promise.all(batch.map(alone))),
          );
    return this.#lastFlush;
  }

  /**
   * Writes `pages` in the caller's transaction, evicting the oldest pages past the cap once, then updates the hot
   * tier (before the commit: a write of this process that follows must find the copies to replace or drop them).
   */
  #writePages(pages: readonly CachedPage[]): void {
    const { version, evicted } = this.#db.write(() => {
      // Read inside the write lock: no other process can commit until we do, so this version is ours.
      const current = this.#hot ? this.#db.dataVersion() : 0;
      for (const page of pages) {
        this.#db.run(
          `INSERT INTO pages (key, url, cached_at, bytes, value, body) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (key) DO UPDATE SET
             url = excluded.url, cached_at = excluded.cached_at, bytes = excluded.bytes, value = excluded.value,
             body = excluded.body`,
          page.key,
          page.url,
          page.cachedAt,
          pageBytes(page),
          page.value,
          page.body ?? null,
        );
        indexPage(this.#db, page.key, page.cachedAt, this.#indexes ? page.search : undefined);
      }
      const removed =
        this.#totals().bytes > this.#maxBytes
          ? this.#evictOldest(Math.floor(this.#maxBytes * AUTO_PRUNE_LOW_WATERMARK))
          : [];
      return { version: current, evicted: removed };
    });
    for (const key of evicted) this.#hot?.delete(key);
    for (const page of pages) {
      if (evicted.includes(page.key)) continue;
      const hot: HotPage = {
        url: page.url,
        cachedAt: page.cachedAt,
        value: page.value,
        bytes: pageBytes(page),
        validatedAt: version,
      };
      if (page.body) hot.body = page.body;
      this.#hot?.set(page.key, hot);
    }
  }

  /**
   * Touches go in one write transaction once a turn of the event loop has passed with no new one (or
   * `MAX_TOUCH_BATCH` wait): a recrawl confirms each of its pages with a 304 and a touch, and a transaction of its own
   * per page was a tenth of its CPU. Waiting while touches keep coming also lines the pages up: a crawl's pages whose
   * 304s come back one turn apart (new connections) would otherwise go on in that many groups, each paying its own
   * commits to the end of the crawl. A touch resolves once committed.
   */
  touch(key: string, cachedAt: number): Promise<boolean> {
    let touched: Promise<boolean> | undefined;
    // Queued at once (a closed store rejects, as for any other call), so a `close` right after still commits it.
    const queued = this.#db.use(() => {
      touched = new Promise<boolean>((resolve, reject) => {
        if (this.#touches.length === 0) this.#flushWhenSettled();
        this.#touches.push({ key, cachedAt, resolve, reject });
      });
    });
    return queued.then(() => touched!);
  }

  /** Flushes the touches at the end of the first turn that added none (a touching caller waits, so they stop). */
  #flushWhenSettled(): void {
    let seen = 0;
    const settled = () => {
      const waiting = this.#touches.length;
      if (waiting > seen && waiting < MAX_TOUCH_BATCH) {
        seen = waiting;
        setImmediate(settled);
      } else this.flushTouches();
    };
    setImmediate(settled);
  }

  /** Commits the touches waiting now (the store is closing), after the puts waiting (a touch may follow its put). */
  flushTouches(): void {
    const batch = this.#touches.splice(0);
    if (batch.length === 0) return;
    void this.flushPuts();
    this.#db
      .useWrite(() => {
        const version = this.#hot ? this.#db.dataVersion() : 0;
        const touched = batch.map(({ key, cachedAt }) => {
          const changed = this.#db.run('UPDATE pages SET cached_at = ? WHERE key = ?', cachedAt, key) > 0;
          if (changed) this.#db.run('UPDATE search_entries SET time = ? WHERE page_key = ?', cachedAt, key);
          return changed;
        });
        batch.forEach(({ key, cachedAt }, i) => {
          const hot = this.#hot?.get(key);
          // The hot copy is kept only if no other connection has committed since it was validated: one may have
          // replaced the page, and the touch (which matched the key, not the value) says nothing of which copy it is.
          if (hot && touched[i] && hot.validatedAt === version) this.#hot!.set(key, { ...hot, cachedAt });
          else this.#hot?.delete(key);
        });
        return touched;
      })
      .then(
        (touched) => batch.forEach(({ resolve }, i) => resolve(touched[i]!)),
        (error: unknown) => {
          for (const { key, reject } of batch) {
            this.#hot?.delete(key);
            reject(error);
          }
        },
      );
  }

  keysOf(url: string): Promise<string[]> {
    return this.#afterPuts(() =>
      this.#db.all<{ key: string }>('SELECT key FROM pages WHERE url = ?', url).map((r) => r.key),
    );
  }

  deleteByUrl(url: string): Promise<number> {
    void this.flushPuts();
    return this.#db.useWrite(() => {
      const deleted = this.#db.all<{ key: string }>('DELETE FROM pages WHERE url = ? RETURNING key', url);
      this.#hot?.deleteWhere((page) => page.url === url);
      return deleted.length;
    });
  }

  deleteByUrlPrefix(prefix: string, cachedBefore: number): Promise<number> {
    void this.flushPuts();
    return this.#db.useWrite(() => {
      // The URLs from `prefix` up to (not including) the prefix with its last character's successor: an index range.
      const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
      const deleted = this.#db.all<{ key: string }>(
        'DELETE FROM pages WHERE url >= ? AND url < ? AND cached_at < ? RETURNING key',
        prefix,
        end,
        cachedBefore,
      );
      this.#hot?.deleteWhere((page) => page.url.startsWith(prefix) && page.cachedAt < cachedBefore);
      return deleted.length;
    });
  }

  clear(): Promise<void> {
    void this.flushPuts();
    return this.#db.useWrite(() => {
      this.#db.run('DELETE FROM pages');
      this.#hot?.clear();
    });
  }

  prune(options: { olderThan?: number; maxBytes?: number; now?: number }): Promise<number> {
    void this.flushPuts();
    return this.#db.useWrite(() => {
      const cutoff = options.olderThan !== undefined ? (options.now ?? Date.now()) - options.olderThan : undefined;
      const aged = cutoff !== undefined ? this.#db.run('DELETE FROM pages WHERE cached_at < ?', cutoff) : 0;
      const evicted = options.maxBytes !== undefined ? this.#evictOldest(options.maxBytes) : [];
      if (cutoff !== undefined && aged > 0) this.#hot?.deleteWhere((page) => page.cachedAt < cutoff);
      for (const key of evicted) this.#hot?.delete(key);
      return aged + evicted.length;
    });
  }

  stats(): Promise<{ entries: number; bytes: number }> {
    return this.#afterPuts(() => this.#totals());
  }

  /**
   * The read `read` once the puts waiting are committed (at once when none is left to commit). The writes of this
   * process run in call order, so the puts go before any write called after them without this.
   */
  #afterPuts<T>(read: () => T): Promise<T> {
    const flushed = this.flushPuts();
    if (this.#committing.size === 0) return this.#db.use(read);
    return flushed.then(() => this.#db.use(read));
  }

  /** The hot copy of `key` if it still matches the database (see the class comment), else undefined. */
  #hotCopy(key: string): HotPage | undefined {
    const hot = this.#hot?.get(key);
    if (!hot) return undefined;
    const version = this.#db.dataVersion();
    if (hot.validatedAt === version) return hot;
    const row = this.#db.get<{ cached_at: number; bytes: number }>(
      'SELECT cached_at, bytes FROM pages WHERE key = ?',
      key,
    );
    if (row?.cached_at !== hot.cachedAt || row.bytes !== hot.bytes) {
      this.#hot?.delete(key);
      return undefined;
    }
    hot.validatedAt = version;
    return hot;
  }

  #totals(): { entries: number; bytes: number } {
    return this.#db.get<{ entries: number; bytes: number }>('SELECT entries, bytes FROM page_totals WHERE id = 1')!;
  }

  /** Deletes the oldest pages until the total is at most `maxBytes`; returns their keys. Call inside `write`. */
  #evictOldest(maxBytes: number): string[] {
    let total = this.#totals().bytes;
    if (total <= maxBytes) return [];
    const victims: string[] = [];
    for (const row of this.#db.statement('SELECT key, bytes FROM pages ORDER BY cached_at, rowid').iterate()) {
      const { key, bytes } = row as { key: string; bytes: number };
      victims.push(key);
      total -= bytes;
      if (total <= maxBytes) break;
    }
    for (const key of victims) this.#db.run('DELETE FROM pages WHERE key = ?', key);
    return victims;
  }
}

function toPage(key: string, hot: HotPage): CachedPage {
  const page: CachedPage = { key, url: hot.url, cachedAt: hot.cachedAt, value: hot.value };
  if (hot.body) page.body = hot.body;
  return page;
}
