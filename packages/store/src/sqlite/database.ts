import { clearTimeout, setImmediate, setTimeout } from 'node:timers';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { StoreBusyError, StoreCorruptError, StoreError, isStoreError, toError } from '../errors.js';
import type { Lifecycle } from '../lifecycle.js';

/** What the store binds: no booleans, no undefined (callers map those to 0/1 and null). */
export type SqlValue = string | number | null | Uint8Array;

// Primary SQLite result codes (https://www.sqlite.org/rescode.html) the store maps to its own errors.
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_CORRUPT = 11;
const SQLITE_NOTADB = 26;

/** `?NNN`: node:sqlite in Node 22.16 takes it for a named parameter and binds no positional value to it. */
const NUMBERED_PARAMETER = /\?\d/;

/** The first pause before trying another process's write lock again, in ms; it doubles up to `MAX_BACKOFF_MS`. */
const FIRST_BACKOFF_MS = 2;
const MAX_BACKOFF_MS = 50;
/**
 * How long `lockWait` tries the write lock when none of this process's writes is waiting for it, in ms: a healthy
 * process sharing the store holds it for milliseconds, so a lock it cannot get in this time is held on.
 */
const PROBE_MS = 200;

/** A statement that changes rows: it may run only inside the write lock (`useWrite`, `write`). */
const WRITING_STATEMENT =
  /^\s*(?:INSERT|UPDATE|DELETE|REPLACE)\b|^\s*WITH\b[\s\S]*\b(?:INSERT|UPDATE|DELETE|REPLACE)\s/i;

interface QueuedWrite {
  fn: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** `performance.now()` past which it fails `STORE_BUSY`. */
  deadline: number;
}

/**
 * A `node:sqlite` connection with a prepared-statement cache, `BEGIN IMMEDIATE` transactions and translation of
 * SQLite failures into store errors.
 *
 * Reads and writes have one entry point each, and the rule between them is kept here: `use(fn)` runs a read, and a
 * statement that changes rows run outside the write lock throws (`statement`); `useWrite(fn)` runs `fn` in one
 * `BEGIN IMMEDIATE` transaction, so each writing call is atomic. `node:sqlite` is synchronous, so the connection's
 * own `busy_timeout` is 0 once the store is open: another process's write lock is waited for here, with timers
 * (`FIRST_BACKOFF_MS` doubling to `MAX_BACKOFF_MS`), and the event loop goes on answering meanwhile. Writes that
 * meet the lock wait in a queue, in the order they were called, each for the store's busy timeout at most. Within
 * one process nothing interleaves: each `fn` runs whole in one turn.
 */
export class SqliteDatabase {
  readonly #db: DatabaseSync;
  readonly #life: Lifecycle;
  readonly #busyTimeoutMs: number;
  readonly #statements = new Map<string, { statement: StatementSync; writes: boolean }>();
  #inTransaction = false;
  #dataVersion: StatementSync | undefined;
  /** The `data_version` read first in this turn of the event loop (`dataVersionOfTurn`). */
  #turnVersion: number | undefined;
  /** Writes waiting for another process's write lock, in call order. */
  readonly #queue: QueuedWrite[] = [];
  #retry: NodeJS.Timeout | undefined;
  #backoffMs = FIRST_BACKOFF_MS;
  /** When the write lock was first found held since this connection last took it (`lockWait`). */
  #busySince: number | undefined;
  /** Callers of `settled` waiting for the queue to empty. */
  #settledWaiters: (() => void)[] = [];
  /** Called after each commit of this connection (`afterCommit`). */
  #afterCommit: (() => void) | undefined;

  /** `busyTimeoutMs`: how long a call waits for another process's write lock before `STORE_BUSY`. */
  constructor(db: DatabaseSync, life: Lifecycle, busyTimeoutMs = 5_000) {
    this.#db = db;
    this.#life = life;
    this.#busyTimeoutMs = busyTimeoutMs;
  }

  /**
   * Runs the read `fn` on the open store and hands its result back as a promise; a throw becomes a rejection with
   * the SQLite error translated. A read that meets a lock (rare in WAL mode: a checkpoint, a recovery) is run again
   * after a pause, for the busy timeout at most. A statement of `fn` that changes rows throws: writes go through
   * `useWrite`.
   */
  use<T>(fn: () => T): Promise<T> {
    try {
      this.#life.assertOpen();
      return Promise.resolve(fn());
    } catch (error) {
      if (!isBusy(error) || this.#inTransaction) return Promise.reject(translateSqliteError(error));
      return this.#readAgain(fn, performance.now() + this.#busyTimeoutMs);
    }
  }

  /**
   * Runs `fn` in one `BEGIN IMMEDIATE` transaction (committed when it returns, rolled back when it throws) and hands
   * its result back as a promise. When the write lock is free (or this connection holds it: a call from inside
   * another write joins it) `fn` runs at once, as part of the call; when another process holds it, `fn` waits in
   * the queue of writes, without holding the event loop, and runs once the lock is taken: `STORE_BUSY` past the
   * busy timeout.
   */
  useWrite<T>(fn: () => T): Promise<T> {
    try {
      this.#life.assertOpen();
      if (this.#inTransaction) return Promise.resolve(fn());
      if (this.#queue.length === 0 && this.#tryBegin()) return Promise.resolve(this.#commitAfter(fn));
    } catch (error) {
      return Promise.reject(translateSqliteError(error));
    }
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({
        fn,
        resolve: resolve as (value: unknown) => void,
        reject,
        deadline: performance.now() + this.#busyTimeoutMs,
      });
      this.#scheduleRetry();
    });
  }

  /** Resolves once no write waits in the queue (each committed, or failed at its busy timeout). */
  settled(): Promise<void> {
    if (this.#queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#settledWaiters.push(resolve));
  }

  /**
   * How long, in ms, another process's write lock has kept this connection from writing: 0 when the lock is free
   * (tried for up to `PROBE_MS` when no write of this process is waiting for it, so that a lock held for
   * milliseconds is not counted).
   */
  async lockWait(): Promise<number> {
    const until = performance.now() + PROBE_MS;
    for (let pause = FIRST_BACKOFF_MS; this.#queue.length === 0 && !this.#inTransaction; pause *= 2) {
      if (this.#tryBegin()) {
        this.#db.exec('ROLLBACK');
        return 0;
      }
      if (performance.now() >= until) break;
      await sleep(Math.min(pause, MAX_BACKOFF_MS));
    }
    return this.#busySince === undefined ? 0 : performance.now() - this.#busySince;
  }

  /** The cached prepared statement for `sql`; a statement that changes rows only inside the write lock. */
  statement(sql: string): StatementSync {
    let cached = this.#statements.get(sql);
    if (!cached) {
      // Refused on every Node so that the suite, which runs on Node 24, catches what only the older Node fails on.
      if (NUMBERED_PARAMETER.test(sql)) {
        throw new Error(
          `SQL with a numbered parameter (?1): node:sqlite before Node 24 binds values to plain ? only (Node 22.16 ` +
            `fails with "column index out of range"), so use ? and pass a value repeated as often as it is used: ${sql}`,
        );
      }
      cached = { statement: this.#db.prepare(sql), writes: WRITING_STATEMENT.test(sql) };
      this.#statements.set(sql, cached);
    }
    if (cached.writes && !this.#inTransaction) {
      throw new Error(
        `A statement that changes rows ran outside the write lock: run it through useWrite (or write), which takes ` +
          `the lock without holding the event loop and makes the call one transaction: ${sql}`,
      );
    }
    return cached.statement;
  }
  /** Runs a statement; returns the number of rows changed. */
  run(sql: string, ...params: SqlValue[]): number {
    return Number(this.statement(sql).run(...params).changes);
  }

  get<T>(sql: string, ...params: SqlValue[]): T | undefined {
    return this.statement(sql).get(...params) as T | undefined;
  }

  all<T>(sql: string, ...params: SqlValue[]): T[] {
    return this.statement(sql).all(...params) as T[];
  }

  /** The rows of a query one at a time: a caller that stops early never reads the rest. */
  iterate<T>(sql: string, ...params: SqlValue[]): IterableIterator<T> {
    return this.statement(sql).iterate(...params) as IterableIterator<T>;
  }

  /**
   * `PRAGMA data_version`: changes exactly when another connection (another process, or another store on the same
   * file) has committed since this connection last looked. Read on every hot-tier hit, so it skips row objects.
   */
  dataVersion(): number {
    if (!this.#dataVersion) {
      this.#dataVersion = this.#db.prepare('PRAGMA data_version');
      // Node 22.16 and 24 on, though the types of 22.16 lack it; an older Node returns the row object.
      (this.#dataVersion as { setReturnArrays?: (on: boolean) => void }).setReturnArrays?.(true);
    }
    const row = this.#dataVersion.get() as unknown;
    return Array.isArray(row) ? (row[0] as number) : (row as { data_version: number }).data_version;
  }

  /**
   * `PRAGMA data_version` read at most once a turn of the event loop, to stamp a row read after it: a version read
   * before the row can only make the copy look older than it is (the next check reads its `cached_at` again), never
   * newer. Each statement outside a transaction takes and drops the WAL's read lock, so a new engine's recrawl paid
   * one more read a cached page for its stamp alone.
   */
  dataVersionOfTurn(): number {
    if (this.#turnVersion === undefined) {
      this.#turnVersion = this.dataVersion();
      setImmediate(() => {
        this.#turnVersion = undefined;
      });
    }
    return this.#turnVersion;
  }

  /** Executes SQL text without caching (DDL, pragmas, transaction control). */
  exec(sql: string): void {
    this.#db.exec(sql);
  }

  /**
   * Runs `fn` in a `BEGIN IMMEDIATE` transaction, at once: the write lock is taken up front, so the reads inside see
   * the latest data and no other process can commit in between. Rolls back when `fn` throws. Nested calls join the
   * outer transaction. Outside a transaction it does not wait for another process's lock once the store is open
   * (`SQLITE_BUSY` at once): for the migrations at open and best-effort work (the search index's idle writer), which
   * try again later; every store call goes through `useWrite`.
   */
  write<T>(fn: () => T): T {
    if (this.#inTransaction) return fn();
    this.#db.exec('BEGIN IMMEDIATE');
    return this.#commitAfter(fn);
  }

  /** Calls `listener` after each commit of this connection, before the call that committed returns. */
  afterCommit(listener: () => void): void {
    this.#afterCommit = listener;
  }

  close(): void {
    clearTimeout(this.#retry);
    this.#statements.clear();
    this.#dataVersion = undefined;
    this.#turnVersion = undefined;
    this.#db.close();
  }

  /** `BEGIN IMMEDIATE` without waiting: false when another process holds the write lock. */
  #tryBegin(): boolean {
    try {
      this.#db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      if (!isBusy(error)) throw error;
      this.#busySince ??= performance.now();
      return false;
    }
    this.#busySince = undefined;
    return true;
  }

  /** Runs `fn` in the transaction just begun, then commits it (or rolls it back when `fn` throws). */
  #commitAfter<T>(fn: () => T): T {
    this.#inTransaction = true;
    let result: T;
    try {
      result = fn();
      this.#db.exec('COMMIT');
    } catch (error) {
      try {
        this.#db.exec('ROLLBACK');
      } catch {
        // SQLite already rolled back (e.g. after SQLITE_FULL or a failed COMMIT): nothing left to undo.
      }
      throw error;
    } finally {
      this.#inTransaction = false;
    }
    this.#afterCommit?.();
    return result;
  }

  #scheduleRetry(): void {
    if (this.#retry) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.#runQueue();
    }, this.#backoffMs);
    this.#backoffMs = Math.min(this.#backoffMs * 2, MAX_BACKOFF_MS);
  }

  /** Runs the queued writes in order while the lock can be taken; fails those past their busy timeout. */
  #runQueue(): void {
    while (this.#queue.length > 0) {
      const head = this.#queue[0]!;
      let began: boolean;
      try {
        began = this.#tryBegin();
      } catch (error) {
        this.#queue.shift();
        head.reject(translateSqliteError(error));
        continue;
      }
      if (!began) {
        const now = performance.now();
        // Deadlines grow along the queue: those past theirs are at its head.
        while (this.#queue.length > 0 && this.#queue[0]!.deadline <= now) {
          this.#queue.shift()!.reject(busyError());
        }
        if (this.#queue.length > 0) return this.#scheduleRetry();
        break;
      }
      this.#queue.shift();
      this.#backoffMs = FIRST_BACKOFF_MS;
      try {
        head.resolve(this.#commitAfter(head.fn));
      } catch (error) {
        head.reject(translateSqliteError(error));
      }
    }
    this.#backoffMs = FIRST_BACKOFF_MS;
    for (const resolve of this.#settledWaiters.splice(0)) resolve();
  }

  /** `fn` run again after pauses while it meets a lock, until `deadline`. */
  async #readAgain<T>(fn: () => T, deadline: number): Promise<T> {
    for (let pause = FIRST_BACKOFF_MS; ; pause = Math.min(pause * 2, MAX_BACKOFF_MS)) {
      await sleep(pause);
      try {
        this.#life.assertOpen();
        return fn();
      } catch (error) {
        if (!isBusy(error) || performance.now() >= deadline) throw translateSqliteError(error);
      }
    }
  }
}

function isBusy(error: unknown): boolean {
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  return typeof errcode === 'number' && ((errcode & 0xff) === SQLITE_BUSY || (errcode & 0xff) === SQLITE_LOCKED);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The `STORE_BUSY` of a write that waited for the lock for the whole busy timeout. */
function busyError(): Error {
  return translateSqliteError(Object.assign(new Error('database is locked'), { errcode: SQLITE_BUSY }));
}

/** Maps a `node:sqlite` error to a store error; store errors pass through. */
export function translateSqliteError(error: unknown): Error {
  if (isStoreError(error)) return error;
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  if (typeof errcode !== 'number') return toError(error);
  const message = error instanceof Error ? error.message : String(error);
  switch (errcode & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return new StoreBusyError(
        `The store is locked by another process: ${message} (after waiting for the lock for the store's busy timeout, ` +
          '5 s unless createSqliteStore was given another busyTimeoutMs). Another process ' +
          'is writing to the same store for that long (a `crawlkit cache vacuum`, a long write): retry once it is ' +
          'done, or give each process its own store (--store, storeDir).',
        { cause: error },
      );
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return new StoreCorruptError(`The store's database is damaged: ${message}`, { cause: error });
    default:
      return new StoreError('STORE_IO', `SQLite failed: ${message}`, { cause: error });
  }
}
