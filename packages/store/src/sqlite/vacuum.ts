/**
 * Giving a store file's free pages back to the file system: SQLite keeps the pages of deleted rows (a cleared or
 * pruned page cache, expired results) in the file for reuse, so the file never shrinks by itself. `VACUUM` rewrites
 * it without them. It needs room for a copy of the live data beside the file (in the temporary directory), and holds
 * the write lock while it runs: other processes on the store wait (their busy timeout) or fail `STORE_BUSY`.
 */
import { statSync } from 'node:fs';

import type { SqliteDatabase } from './database.js';

/** The sizes of the store's files before and after a vacuum, in bytes (the database and its write-ahead log). */
export interface VacuumResult {
  beforeBytes: number;
  afterBytes: number;
  /**
   * Of `afterBytes`, the write-ahead log's (`crawlkit.db-wal`): 0, unless another process reading the store (a
   * `serve` answering a status) kept the log the vacuum wrote through from being folded back into the file and
   * truncated. It is then as large as the rewritten file, until that process closes the store or a vacuum runs again
   * with no other process on it.
   */
  walBytes: number;
}

const sizeOf = (path: string): number => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

/** The bytes of the database at `path` and its `-wal` file. */
const storeBytes = (path: string): number => sizeOf(path) + sizeOf(`${path}-wal`);

/**
 * Rewrites the database at `path` without its free pages: the log checkpointed into the file and truncated first
 * (so what it holds is counted once and kept), then `VACUUM`, then the log truncated again (VACUUM writes through it).
 */
export function vacuumDatabase(db: SqliteDatabase, path: string): VacuumResult {
  const beforeBytes = storeBytes(path);
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.exec('VACUUM');
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  return { beforeBytes, afterBytes: storeBytes(path), walBytes: sizeOf(`${path}-wal`) };
}
