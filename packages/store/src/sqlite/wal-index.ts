/**
 * A read of a WAL file's index (the `-shm` file) without SQLite: how many frames the log holds and how many are copied
 * back (sqlite.org/walformat.html). Closing any descriptor of a file drops every POSIX lock the process holds on it,
 * and SQLite's WAL locks are such locks on the `-shm` file: closed while a connection of the process was in a
 * checkpoint, it let another process write and restart the log beside it, and a page it had committed was lost (1 of
 * 120 in a two-process test). So the process holds one descriptor for each index file (by device and inode, whatever
 * path reached it), and closes it only once the file is unlinked: SQLite deletes it when the last connection to the
 * database, of any process, closes. Counting the readers is not enough: a connection that never read the index (a store
 * with `walCheckpointer: false`, one that has not committed yet, a connection of the user's own) holds locks on it too.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

// Two copies of a 48-byte header, then the checkpoint's record; native byte order. Words of 4 bytes: frames in the
// log (`mxFrame`, byte 16) and frames copied back (`nBackfill`, byte 96).
const FRAMES = 4;
const BACKFILLED = 24;

/** The open index files of this process, by `<device>:<inode>`, and how many readers hold each. */
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
  /** The key in `open` of the index this reader holds. */
  #held: string | undefined;

  /** `path`: the database file (the index is `<path>-shm`). */
  constructor(path: string) {
    this.#path = resolve(path);
  }

  /** The log's state now; throws when there is no index to read (another locking mode, another VFS). */
  read(): WalState {
    if (this.#held === undefined) {
      // Found before it is opened: a second descriptor of a file the process holds is one too many to close. Read
      // after a commit of the connection, whose open keeps the file from being deleted or replaced meanwhile.
      const shm = `${this.#path}-shm`;
      const { dev, ino } = statSync(shm);
      const key = `${dev}:${ino}`;
      let entry = open.get(key);
      if (!entry) {
        entry = { fd: openSync(shm, 'r'), readers: 0 };
        open.set(key, entry);
      }
      entry.readers++;
      this.#held = key;
    }
    readSync(open.get(this.#held)!.fd, new Uint8Array(this.#words.buffer), 0, this.#words.byteLength, 0);
    return { frames: this.#words[FRAMES]!, backfilled: this.#words[BACKFILLED]! };
  }

  /**
   * To call once the connection this index was read for has closed: closes the descriptors no reader holds whose file
   * is deleted (this one's when that connection was the last to the database); another's stays open, one a file.
   */
  release(): void {
    if (this.#held === undefined) return;
    open.get(this.#held)!.readers--;
    this.#held = undefined;
    for (const [key, entry] of open) {
      if (entry.readers > 0 || fstatSync(entry.fd).nlink > 0) continue;
      open.delete(key);
      closeSync(entry.fd);
    }
  }
}
