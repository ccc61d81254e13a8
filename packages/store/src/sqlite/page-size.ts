import type { SqliteDatabase } from './database.js';

/**
 * The page size of a store file made new, in bytes (SQLite's default is 4 KiB; a file keeps the size it was made
 * with). The page cache keeps each page's body, 300 KB on average over the bench's pages: at 4 KiB that is 75
 * overflow pages, each a frame of the WAL (two writes) and again a page copied by the checkpoint, on the thread that
 * commits. At 8 KiB a body's write cost 0.8-0.9 ms of CPU instead of 1.2-1.4 (16 KiB: no cheaper for bodies, and a
 * claim-and-complete cycle of small rows a third slower; perf37h in bench/README.md).
 * @default 8192
 */
export const NEW_FILE_PAGE_SIZE = 8192;

/** How large the WAL grows before it is checkpointed, in bytes: SQLite's default, 1000 pages of 4 KiB. */
const WAL_CHECKPOINT_BYTES = 4_096_000;

/** `PRAGMA wal_autocheckpoint` for `db`: the pages of its size that make `WAL_CHECKPOINT_BYTES`. */
export function walCheckpointPages(db: SqliteDatabase): number {
  const row = db.get<{ page_size: number }>('PRAGMA page_size');
  return Math.ceil(WAL_CHECKPOINT_BYTES / (row?.page_size ?? 4096));
}
