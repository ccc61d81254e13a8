/**
 * The WAL checkpoint on a thread of its own. A store commits into its write-ahead log, and the log is copied back
 * into the database file (a checkpoint, with two `fsync`s) once it holds 4 MB: SQLite does that on the thread that
 * commits, right after the commit that passed the size, and for the page cache's bodies it was half of a body's write
 * in CPU and 85% in wall, on the thread that feeds the extraction pool (perf37i in bench/README.md).
 *
 * Here, after each commit, the committing thread reads the log's size from its index (the `-shm` file: a few bytes,
 * no lock) and, past the size, asks a thread with a connection of its own for the checkpoint
 * (`wal-checkpointer-thread.ts`). The committing connection still checkpoints itself past `SAFETY_FACTOR` times the
 * size, so a thread that falls behind cannot let the log grow without bound; one that dies gives the checkpoint back
 * to the committing thread at the usual size. The thread starts once the log holds half the size: a process that
 * writes little (a CLI scrape) never starts one.
 */
import { clearTimeout, setTimeout } from 'node:timers';
import { SHARE_ENV, Worker } from 'node:worker_threads';

import type { SqliteDatabase } from './database.js';
import { CHECKPOINTER_THREAD } from './wal-checkpointer-thread.js';
import { WalIndex, type WalState } from './wal-index.js';

/** The log's size past which the committing connection checkpoints itself, in checkpoint sizes. */
export const SAFETY_FACTOR = 4;

/** The share of the checkpoint size the log holds when the thread starts. */
const START_SHARE = 0.5;

/** How long `stop` waits for the thread to end (a checkpoint under way finishes first) before terminating it. */
const STOP_MS = 5_000;

/** The checkpointer of one store's connection: `afterCommit` after each of its commits, `stop` before it closes. */
export class WalCheckpointer {
  readonly #db: SqliteDatabase;
  readonly #path: string;
  readonly #index: WalIndex;
  /** The checkpoint size, in frames (pages of the file). */
  readonly #frames: number;
  readonly #thread: string;
  #worker: Worker | undefined;
  #exited: Promise<void> | undefined;
  /** A checkpoint was asked of the thread and it has not answered yet. */
  #asked = false;
  /** Callers of `idle` waiting for that answer. */
  #idleWaiters: (() => void)[] = [];
  /** Stopped, or given up (the thread died, or the index could not be read): the committing thread checkpoints. */
  #off = false;

  /**
   * `frames`: the checkpoint size in pages of the file (`walCheckpointPages`). `thread`: the thread's code (tests give
   * one that falls behind).
   */
  constructor(db: SqliteDatabase, path: string, frames: number, thread = CHECKPOINTER_THREAD) {
    this.#db = db;
    this.#path = path;
    this.#index = new WalIndex(path);
    this.#frames = frames;
    this.#thread = thread;
  }

  /** To call after each commit of `db`: asks for a checkpoint once the log is past the size. */
  afterCommit(): void {
    if (this.#asked || this.#off) return;
    const log = this.#readIndex();
    if (!log) return;
    if (!this.#worker) {
      if (log.frames >= this.#frames * START_SHARE) this.#start();
      return;
    }
    if (log.frames >= this.#frames && log.backfilled < log.frames) {
      this.#asked = true;
      this.#worker.postMessage('checkpoint');
    }
  }

  /**
   * Resolves once no checkpoint asked of the thread is under way, so that one of the committing connection (a
   * vacuum's `TRUNCATE`) has the log to itself: SQLite answers a second checkpoint busy at once, without waiting.
   */
  idle(): Promise<void> {
    if (!this.#asked) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /**
   * Stops the thread, its connection closed first (so that the store's own, closed last, checkpoints the log and
   * deletes it, as without the thread), and resolves once it has ended; a thread that does not end within
   * `STOP_MS` is terminated.
   */
  async stop(): Promise<void> {
    this.#off = true;
    const worker = this.#worker;
    if (!worker) return;
    worker.postMessage('stop');
    const late = setTimeout(() => void worker.terminate(), STOP_MS);
    await this.#exited;
    clearTimeout(late);
  }

  /**
   * To call once the store's connection has closed (never before: see `WalIndex`), after `stop`: lets go of the
   * log's index.
   */
  release(): void {
    this.#index.release();
  }

  /** The log's state from its index; undefined (and the thread given up) when unreadable. */
  #readIndex(): WalState | undefined {
    try {
      return this.#index.read();
    } catch {
      // No index beside the file (another locking mode, another VFS): SQLite's own checkpoint stays.
      this.#giveUp();
      return undefined;
    }
  }

  #start(): void {
    let worker: Worker;
    try {
      worker = new Worker(this.#thread, {
        eval: true,
        workerData: { path: this.#path },
        env: SHARE_ENV,
        name: 'crawlkit-checkpointer',
      });
    } catch {
      this.#giveUp();
      return;
    }
    this.#worker = worker;
    worker.on('message', () => this.#answered());
    // A thread that failed (its connection could not open, a checkpoint threw) ends: the 'exit' below takes over.
    worker.on('error', () => undefined);
    this.#exited = new Promise((resolve) =>
      worker.once('exit', () => {
        this.#giveUp();
        this.#answered();
        resolve();
      }),
    );
    // The process may end without closing the store: the thread never keeps it alive (after the listeners, whose
    // first one refs the thread's port again).
    worker.unref();
    this.#db.exec(`PRAGMA wal_autocheckpoint = ${this.#frames * SAFETY_FACTOR}`);
  }

  /** The thread answered (or ended): no checkpoint of it is under way. */
  #answered(): void {
    this.#asked = false;
    for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }

  /** SQLite's own checkpoint at the usual size again (unless the store is closing). */
  #giveUp(): void {
    if (this.#off) return;
    this.#off = true;
    try {
      this.#db.exec(`PRAGMA wal_autocheckpoint = ${this.#frames}`);
    } catch {
      // The connection is closed: nothing commits any more.
    }
  }
}
