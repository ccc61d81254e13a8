import { setImmediate } from 'node:timers';
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

/**
 * A `node:sqlite` connection with a prepared-statement cache, `BEGIN IMMEDIATE` transactions and translation of
 * SQLite failures into store errors. The API is synchronous like `node:sqlite`: within one process no two
 * transactions interleave; across processes SQLite's locks (and `busy_timeout`) serialise writers.
 */
export class SqliteDatabase {
  readonly #db: DatabaseSync;
  readonly #life: Lifecycle;
  readonly #statements = new Map<string, StatementSync>();
  #inTransaction = false;
  #dataVersion: StatementSync | undefined;
  /** The `data_version` read first in this turn of the event loop (`dataVersionOfTurn`). */
  #turnVersion: number | undefined;

  constructor(db: DatabaseSync, life: Lifecycle) {
    this.#db = db;
    this.#life = life;
  }

  /**
   * Runs `fn` on the open store and hands its result back as a promise; a throw becomes a rejection with the SQLite
   * error translated. Every public method goes through here.
   */
  use<T>(fn: () => T): Promise<T> {
    try {
      this.#life.assertOpen();
      return Promise.resolve(fn());
    } catch (error) {
      return Promise.reject(translateSqliteError(error));
    }
  }

  /** The cached prepared statement for `sql`. */
  statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      // Refused on every Node so that the suite, which runs on Node 24, catches what only the older Node fails on.
      if (NUMBERED_PARAMETER.test(sql)) {
        throw new Error(
          `SQL with a numbered parameter (?1): node:sqlite before Node 24 binds values to plain ? only (Node 22.16 ` +
            `fails with "column index out of range"), so use ? and pass a value repeated as often as it is used: ${sql}`,
        );
      }
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
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
   * Runs `fn` in a `BEGIN IMMEDIATE` transaction: the write lock is taken up front, so the reads inside see the
   * latest data and no other process can commit in between. Rolls back when `fn` throws. Nested calls join the
   * outer transaction.
   */
  write<T>(fn: () => T): T {
    if (this.#inTransaction) return fn();
    this.#db.exec('BEGIN IMMEDIATE');
    this.#inTransaction = true;
    try {
      const result = fn();
      this.#db.exec('COMMIT');
      return result;
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
  }

  close(): void {
    this.#statements.clear();
    this.#dataVersion = undefined;
    this.#turnVersion = undefined;
    this.#db.close();
  }
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
