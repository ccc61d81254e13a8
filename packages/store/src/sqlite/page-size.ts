import type { SqliteDatabase } from './database.js';

/**
 * The page size of a store file made new, in bytes (SQLite's default is 4 KiB; a file keeps the size it was made
 * with). The page cache keeps each page's body, 300 KB on average over the bench's pages: at 4 KiB that is 75
 * overflow pages, each a frame of the WAL (two writes) and again a page copied by the checkpoint, on the thread that
 * commits. At 16 KiB a body is a quarter of the frames: a cache write cost 0.7-0.8 ms of CPU instead of 1.2-1.3
 * (perf37h in bench/README.md); a commit of one small row costs some 35 µs more (a larger page to write).
 * @default 16384
 */
export const NEW_FILE_PAGE_SIZE = 16_384;

/** How large the WAL grows before it is checkpointed, in bytes: SQLite's default, 1000 pages of 4 KiB. */
const WAL_CHECKPOINT_BYTES = 4_096_000;

/** `PRAGMA wal_autocheckpoint` for `db`: the pages of its size that make `WAL_CHECKPOINT_BYTES`. */
export function walCheckpointPages(db: SqliteDatabase): number {
  const row = db.get<{ page_size: number }>('PRAGMA page_size');
  return Math.ceil(WAL_CHECKPOINT_BYTES / (row?.page_size ?? 4096));
}
