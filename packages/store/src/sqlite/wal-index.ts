/**
 * A read of a WAL file's index (the `-shm` file) without SQLite: how many frames the log holds and how many are copied
 * back (sqlite.org/walformat.html). The descriptor stays open, one for each file in the process, until every
 * connection of this process that reads the file through it has closed: closing any descriptor of a file drops every
 * POSIX lock the process holds on it, and SQLite's WAL locks are such locks on the `-shm` file. Closed while a
 * connection of the process was in a checkpoint, it let another process write and restart the log beside it, and a
 * page it had committed was lost (1 of 120 in a two-process test).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { resolve } from 'node:path';

// Two copies of a 48-byte header, then the checkpoint's record; native byte order. Words of 4 bytes: frames in the
// log (`mxFrame`, byte 16) and frames copied back (`nBackfill`, byte 96).
const FRAMES = 4;
const BACKFILLED = 24;

/** The open index of each database file of this process, and how many readers hold it. */
const open = new Map<string, { fd: number; readers: number }>();

export interface WalState {
  /** Frames in the log. */
  frames: number;
  /** Frames of it copied back into the database file. */
  backfilled: number;
}

/** The index of one database file, read by one connection's checkpointer. */
export class WalIndex {
  readonly #path: string;
  readonly #words = new Uint32Array(BACKFILLED + 1);
  #held = false;

  /** `path`: the database file (the index is `<path>-shm`). */
  constructor(path: string) {
    this.#path = resolve(path);
  }

  /** The log's state now; throws when there is no index to read (another locking mode, another VFS). */
  read(): WalState {
    let entry = open.get(this.#path);
    if (!this.#held) {
      if (!entry) {
        entry = { fd: openSync(`${this.#path}-shm`, 'r'), readers: 0 };
        open.set(this.#path, entry);
      }
      entry.readers++;
      this.#held = true;
    }
    readSync(entry!.fd, new Uint8Array(this.#words.buffer), 0, this.#words.byteLength, 0);
    return { frames: this.#words[FRAMES]!, backfilled: this.#words[BACKFILLED]! };
  }

  /**
   * To call once the connection this index was read for has closed: the last reader of the file in the process closes
   * the descriptor.
   */
  release(): void {
    if (!this.#held) return;
    this.#held = false;
    const entry = open.get(this.#path)!;
    if (--entry.readers > 0) return;
    open.delete(this.#path);
    closeSync(entry.fd);
  }
}
