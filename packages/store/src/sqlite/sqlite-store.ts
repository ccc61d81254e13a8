import { statSync } from 'node:fs';
import { stat, statfs } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';

import { loadSqlite } from '@crawlkit/options/quiet-sqlite';

import { StoreBusyError, StoreCorruptError, StoreError, StoreSchemaTooNewError } from '../errors.js';
import { Lifecycle } from '../lifecycle.js';
import { boolean, nonEmptyString, nonNegativeInteger, oneOf, positiveInteger } from '../options.js';
import { keyFileSecretBox } from '../secrets.js';
import type { Store } from '../types.js';
import { SqliteDatabase, translateSqliteError } from './database.js';
import { PageHotTier } from './hot-tier.js';
import { keepCopyBeforeMigration, migrationCopyFor } from './migration-copy.js';
import { LATEST_VERSION, migrate } from './migrations.js';
import { SqliteJobStore } from './jobs.js';
import { SqliteCounterStore } from './counters.js';
import { SqliteScheduleStore } from './schedules.js';
import { SqliteEngineStore } from './engines.js';
import { SqliteDeliveryStore } from './deliveries.js';
import { SqliteHistoryStore } from './history.js';
import { SqlitePageStore } from './pages.js';
import { SqliteResultStore } from './results.js';
import { SqliteSearchIndex } from './search.js';
import { SearchBacklog } from './search-backlog.js';
import { assertWritableDir, makePrivate, makeStoreDir, storeDirProblem } from './store-dir.js';
import { NEW_FILE_PAGE_SIZE, walCheckpointPages } from './page-size.js';
import { SqliteTaskStore } from './tasks.js';
import { vacuumDatabase, type VacuumResult } from './vacuum.js';
import { WalCheckpointer } from './wal-checkpointer.js';

export interface SqliteStoreOptions {
  /** Directory of the store; created (with parents) when missing. crawlkit's default is `./.crawlkit`. */
  dir: string;
  /**
   * Name of the database file inside `dir` (SQLite adds `-wal` and `-shm` files beside it).
   * @default 'crawlkit.db'
   */
  fileName?: string;
  /**
   * Cap on the total size of cached page values, in bytes (UTF-8). A `put` that goes over it evicts the oldest pages
   * (by `cachedAt`) down to 90% of the cap; the check is O(1) (totals are kept by triggers). `Infinity` disables it.
   * @default 1_073_741_824 (1 GiB)
   */
  maxPageBytes?: number;
  /**
   * The in-memory LRU in front of the `pages` table, bounded by entry count and by bytes of values. `false` turns it
   * off. Its copies stay consistent with writes from other processes (see the README).
   * @default { maxEntries: 1000, maxBytes: 67_108_864 (64 MiB) }
   */
  hotTier?: false | { maxEntries?: number; maxBytes?: number };
  /**
   * How long a write waits for another process's write lock before rejecting with `StoreBusyError`, in
   * milliseconds. The wait is made with timers: the event loop goes on meanwhile (only opening the store, its
   * migrations and `vacuum()` wait in SQLite, holding the thread).
   * @default 5000
   */
  busyTimeoutMs?: number;
  /**
   * SQLite `synchronous` level. `normal` (with WAL) survives a killed process without losing a committed
   * transaction; a power loss may drop the last few commits but never corrupts. `full` also survives power loss, at
   * the cost of an fsync per commit.
   * @default 'normal'
   */
  synchronous?: 'normal' | 'full';
  /**
   * Entries kept per (url, tag) of the history (change-tracking snapshots, crawlkit's records); older ones are
   * dropped on `append`. crawlkit reads only the latest of each: more are kept for a reader of your own.
   * @default 1
   */
  maxHistoryPerUrl?: number;
  /**
   * Keep a search index of the pages and results stored (FTS5, `store.search`), written in the same transactions.
   * With `false` nothing new is indexed and the store has no `search`.
   * @default true
   */
  searchIndex?: boolean;
  /**
   * How long the store must go without a new text before it writes the texts stored since into the search index
   * (FTS5), in milliseconds. A page's write only stores its text, so a crawl does not pay for indexing while it
   * runs; a search first indexes whatever still waits.
   * @default 500
   */
  searchIdleMs?: number;
  /**
   * How long `close()` may spend writing the texts still waiting into the search index (FTS5), in milliseconds, so
   * that a process which stops right after its crawl leaves a complete index (about 50 µs a page of 7 KB of text;
   * the batch under way finishes past it). What is left is written by the next process that opens the store. 0
   * leaves them all to it.
   * @default 2000
   */
  searchCloseMs?: number;
  /**
   * Before a file of an older schema is migrated, write a copy of it beside it (`crawlkit.db.schema-12.bak`): the way
   * back to the earlier crawlkit, as large as the file. `false` migrates without it (a store too large to copy: no
   * way back then).
   * @default true
   */
  migrationCopy?: boolean;
  /**
   * Checkpoint the write-ahead log on a thread of its own (with a connection of its own) instead of the thread that
   * commits, once the log passes 4 MB; the committing connection still does past 16 MB, should that thread fall
   * behind. The thread starts when the log first holds 2 MB. `false` leaves the checkpoint to SQLite, on the thread
   * that commits.
   * @default true
   */
  walCheckpointer?: boolean;
}

/** Something noticed while opening the store that is not an error. */
export interface StoreWarning {
  /**
   * `STORE_FILE_EMPTY`: the database file existed with 0 bytes (truncated?) and became a new, empty store.
   * `STORE_MIGRATED`: the file had an older schema and was migrated, a copy of it kept beside it first (`copy`) unless
   * `migrationCopy: false`.
   */
  code: 'STORE_FILE_EMPTY' | 'STORE_MIGRATED';
  message: string;
  /** `STORE_MIGRATED`: the copy of the file as it was (`crawlkit.db.schema-12.bak`), the way back to a roll-back. */
  copy?: string;
}

/** A SQLite-backed store. */
export interface SqliteStore extends Store {
  /** Absolute path of the database file. */
  readonly path: string;
  /** What opening the store noticed (an empty database file made into a new store); empty when all was well. */
  readonly warnings: readonly StoreWarning[];
  /**
   * Gives the file's free pages (deleted rows: a cleared or pruned page cache) back to the file system (`VACUUM`),
   * answering the files' size before and after. Holds the write lock while it runs; `STORE_BUSY` when another
   * process holds it past the busy timeout.
   */
  vacuum(): Promise<VacuumResult>;
}

const DRIVER_NAME = 'sqlite';
const OPEN_ATTEMPTS = 5;

/**
 * Opens (creating and migrating when needed) the on-disk store in `options.dir`, on `node:sqlite`: WAL journal,
 * `BEGIN IMMEDIATE` for each call that writes, another process's lock waited for without holding the event loop.
 * Several processes may share one directory.
 */
// async with nothing left to wait for (node:sqlite now loads synchronously): a bad option or an unopenable file
// still rejects the promise rather than throwing at the call.
// eslint-disable-next-line @typescript-eslint/require-await
export async function createSqliteStore(options: SqliteStoreOptions): Promise<SqliteStore> {
  const dir = resolve(nonEmptyString('dir', options.dir));
  const fileName = nonEmptyString('fileName', options.fileName ?? 'crawlkit.db');
  const maxPageBytes = nonNegativeInteger('maxPageBytes', options.maxPageBytes, 1024 ** 3, true);
  const busyTimeoutMs = nonNegativeInteger('busyTimeoutMs', options.busyTimeoutMs, 5_000);
  const synchronous = oneOf('synchronous', options.synchronous, ['normal', 'full'], 'normal');
  const maxHistoryPerUrl = positiveInteger('maxHistoryPerUrl', options.maxHistoryPerUrl, 1);
  const searchIndex = boolean('searchIndex', options.searchIndex, true);
  const searchIdleMs = nonNegativeInteger('searchIdleMs', options.searchIdleMs, 500);
  const searchCloseMs = nonNegativeInteger('searchCloseMs', options.searchCloseMs, 2_000);
  const migrationCopy = boolean('migrationCopy', options.migrationCopy, true);
  const walCheckpointer = boolean('walCheckpointer', options.walCheckpointer, true);
  const hotTier =
    options.hotTier === false
      ? undefined
      : new PageHotTier(
          positiveInteger('hotTier.maxEntries', options.hotTier?.maxEntries, 1_000),
          positiveInteger('hotTier.maxBytes', options.hotTier?.maxBytes, 64 * 1024 ** 2),
        );

  const path = join(dir, fileName);
  // A 0-byte file with no write-ahead log holds nothing: SQLite would quietly make it a new store.
  const emptyFile = fileSize(path) === 0 && !fileSize(`${path}-wal`);
  try {
    makeStoreDir(dir);
    makePrivate(path);
  } catch (error) {
    throw new StoreError('STORE_OPEN_FAILED', storeDirProblem(dir, error), { cause: error });
  }
  assertWritableDir(path);
  const { DatabaseSync } = loadSqlite();
  const life = new Lifecycle();
  const { db, created, migrated } = openDatabase(path, () => new DatabaseSync(path), life, {
    busyTimeoutMs,
    synchronous,
    migrationCopy,
  });
  // The file opened: one deleted or replaced under the process is told by `space()` (a server's /ready).
  const opened = statSync(path);
  const warnings: StoreWarning[] =
    emptyFile && created
      ? [
          {
            code: 'STORE_FILE_EMPTY',
            message:
              `The store file ${path} was empty (0 bytes) and is now a new, empty store: any jobs, results and ` +
              'cached pages it held are gone. Was it truncated?',
          },
        ]
      : [];
  if (migrated) {
    const from =
      `The store ${path} was migrated from schema version ${migrated.version} to ${LATEST_VERSION}: an earlier ` +
      'crawlkit now refuses it.';
    warnings.push({
      code: 'STORE_MIGRATED',
      ...(migrated.copy !== undefined ? { copy: migrated.copy } : {}),
      message:
        migrated.copy !== undefined
          ? `${from} A copy of it as it was is kept at ${migrated.copy}; to roll back, put that copy in its place ` +
            '(only the latest such copy is kept: delete it once you stay on this version).'
          : `${from} No copy of it was kept (migrationCopy: false): there is no way back to the earlier crawlkit.`,
    });
  }
  const backlog = searchIndex ? new SearchBacklog(db, life, searchIdleMs) : undefined;
  const checkpointer = walCheckpointer ? new WalCheckpointer(db, path, walCheckpointPages(db)) : undefined;
  if (checkpointer) db.afterCommit(() => checkpointer.afterCommit());

  const pages = new SqlitePageStore(db, hotTier, maxPageBytes, searchIndex);
  let closing: Promise<void> | undefined;
  return {
    kind: DRIVER_NAME,
    ephemeral: false,
    path,
    warnings,
    pages,
    ...(backlog ? { search: new SqliteSearchIndex(db, backlog, () => pages.flushPuts()) } : {}),
    jobs: new SqliteJobStore(db),
    tasks: new SqliteTaskStore(db, searchIndex),
    results: new SqliteResultStore(db),
    deliveries: new SqliteDeliveryStore(db),
    history: new SqliteHistoryStore(db, maxHistoryPerUrl),
    secrets: keyFileSecretBox(dir),
    engines: new SqliteEngineStore(db),
    counters: new SqliteCounterStore(db),
    schedules: new SqliteScheduleStore(db),
    vacuum: async () => {
      life.assertOpen();
      void pages.flushPuts();
      pages.flushTouches();
      await db.settled();
      await checkpointer?.idle(); // one under way on its thread would make the vacuum's checkpoint busy
      try {
        // VACUUM, outside any transaction, waits for another process's lock in SQLite, holding the thread.
        db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
        try {
          return vacuumDatabase(db, path);
        } finally {
          db.exec('PRAGMA busy_timeout = 0');
        }
      } catch (error) {
        throw translateSqliteError(error);
      }
    },
    writable: async () => {
      life.assertOpen();
      const waitedMs = await db.lockWait().catch((error: unknown) => {
        throw translateSqliteError(error);
      });
      if (waitedMs <= busyTimeoutMs) return;
      // No path: a server's /ready answers this to anyone.
      throw new StoreBusyError(
        `The store's writes have waited ${Math.round(waitedMs / 1000)} s for another process's write lock, more ` +
          `than the store's busy timeout (${busyTimeoutMs / 1000} s): every write fails STORE_BUSY meanwhile. ` +
          'Another process is writing to the same store for that long (a `crawlkit cache vacuum`, a long write): it ' +
          'passes once that is done; else give each process its own store (--store, storeDir).',
      );
    },
    space: async () => {
      life.assertOpen();
      const now = await stat(path).catch(() => undefined);
      if (now?.ino !== opened.ino || now.dev !== opened.dev) {
        // No path: a server's /ready answers this to anyone.
        throw new StoreError(
          'STORE_IO',
          "The store's file was deleted or replaced while this process had it open: what it stores now goes to a " +
            'file no other process sees, and is lost when it stops. Restart it (it then opens a new, empty store), ' +
            'and keep the store where no cleaner removes files.',
        );
      }
      const disk = await statfs(dir).catch((error: unknown) => {
        throw new StoreError('STORE_IO', `Cannot read the free space of ${dir}.`, { cause: error });
      });
      return { freeBytes: disk.bavail * disk.bsize, totalBytes: disk.blocks * disk.bsize };
    },
    close: () => (closing ??= closeStore()),
  };

  async function closeStore(): Promise<void> {
    // Puts and touches waiting for their turn are committed, not lost (the writes waiting for another process's lock
    // wait their busy timeout at most); then the texts stored since the last idle turn are indexed.
    if (life.closed) return;
    void pages.flushPuts();
    pages.flushTouches();
    life.close();
    await db.settled();
    // Its connection closed before the store's: the last to close checkpoints the log and deletes it.
    await checkpointer?.stop();
    backlog?.finish(searchCloseMs);
    hotTier?.clear();
    backlog?.close();
    try {
      db.exec('PRAGMA optimize');
    } catch {
      // Best effort: planner statistics only.
    }
    try {
      db.close();
      checkpointer?.release(); // after the connection: see WalIndex
    } catch (error) {
      throw translateSqliteError(error);
    }
  }
}

/* ------------------------------------------------------------------------------------------- Internal helpers -- */

/**
 * Opens the connection to the database at `path`, sets it up and migrates the schema. Two processes creating the same
 * new store race on the switch to WAL, which SQLite may answer with SQLITE_BUSY before the busy handler applies; that
 * is retried.
 */
function openDatabase(
  path: string,
  connect: () => DatabaseSync,
  life: Lifecycle,
  settings: { busyTimeoutMs: number; synchronous: 'normal' | 'full'; migrationCopy: boolean },
): { db: SqliteDatabase; created: boolean; migrated: { version: number; copy?: string } | undefined } {
  for (let attempt = 1; ; attempt++) {
    let raw: DatabaseSync | undefined;
    try {
      raw = connect();
      const db = new SqliteDatabase(raw, life, settings.busyTimeoutMs);
      // Opening and migrating wait for another process's lock in SQLite (they run once, before anything is served).
      db.exec(`PRAGMA busy_timeout = ${settings.busyTimeoutMs}`);
      // A new file only (an existing one keeps the size it was made with): see NEW_FILE_PAGE_SIZE.
      db.exec(`PRAGMA page_size = ${NEW_FILE_PAGE_SIZE}`);
      db.exec('PRAGMA journal_mode = WAL');
      db.exec(`PRAGMA synchronous = ${settings.synchronous.toUpperCase()}`);
      db.exec('PRAGMA foreign_keys = OFF');
      db.exec('PRAGMA temp_store = MEMORY');
      // The WAL is checkpointed at SQLite's default size, 1000 pages of 4 KiB, whatever the file's page size: 10x
      // gave at best ~10% more commits/s, every read after another process's commit ~50% slower (bench/store.ts).
      db.exec(`PRAGMA wal_autocheckpoint = ${walCheckpointPages(db)}`);
      // The way back: a copy of a file of an older schema, before the migration changes it.
      const copy = settings.migrationCopy ? keepCopyBeforeMigration(db, path) : undefined;
      const from = migrate(db);
      const migrated =
        from > 0 && from < LATEST_VERSION ? { version: from, ...(copy ? { copy: copy.path } : {}) } : undefined;
      // From here on the lock is waited for by SqliteDatabase, with timers: SQLite's wait would hold the event loop.
      db.exec('PRAGMA busy_timeout = 0');
      return { db, created: from === 0, migrated };
    } catch (error) {
      raw?.close();
      const translated = translateSqliteError(error);
      if (translated instanceof StoreBusyError && attempt < OPEN_ATTEMPTS) {
        sleepSync(50 * attempt);
        continue;
      }
      if (translated instanceof StoreSchemaTooNewError && translated.copy === undefined) {
        const copy = migrationCopyFor(path, LATEST_VERSION);
        if (copy) throw new StoreSchemaTooNewError(translated.found, translated.supported, undefined, copy);
      }
      // the file is named: a user with several stores must know which one to move aside
      if (translated instanceof StoreCorruptError) {
        throw new StoreCorruptError(`${translated.message} (${path})`, { cause: error });
      }
      if (translated instanceof StoreError && translated.code !== 'STORE_IO') throw translated;
      throw new StoreError('STORE_OPEN_FAILED', `Cannot open the store ${path}: ${String(error)}`, { cause: error });
    }
  }
}

/** The size of a file in bytes; undefined when there is none. */
function fileSize(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
