import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';

import { Lifecycle } from '../lifecycle.js';
import { SqliteDatabase } from './database.js';
import { NEW_FILE_PAGE_SIZE } from './page-size.js';
import { createSqliteStore, type SqliteStoreOptions } from './sqlite-store.js';
import { CHECKPOINTER_THREAD } from './wal-checkpointer-thread.js';
import { SAFETY_FACTOR, WalCheckpointer } from './wal-checkpointer.js';
import { WalIndex, type WalState } from './wal-index.js';

const root = mkdtempSync(join(tmpdir(), 'ck-sqlite-checkpointer-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The checkpoint size, in frames of a new file's 8 KiB pages (4 MB). */
const CHECKPOINT_FRAMES = 500;
/** 300 KB of page body, about the bench pages' mean: 37 frames. */
const body = new Uint8Array(300_000).fill(60);
const page = (i: number) => ({ key: `k${i}`, url: `https://example.com/${i}`, cachedAt: i + 1, value: '{}', body });

/** Frames in the WAL and frames copied back into the file, read from its index (closed once the tests end: `WalIndex`). */
const indexes = new Map<string, WalIndex>();
function walState(path: string): WalState {
  if (!indexes.has(path)) indexes.set(path, new WalIndex(path));
  return indexes.get(path)!.read();
}
afterAll(() => {
  for (const index of indexes.values()) index.release();
});

/** The threads of this process with the checkpointer's name (Linux cuts it at 15 characters). */
const checkpointerThreads = () =>
  readdirSync('/proc/self/task').filter((task) => {
    try {
      return readFileSync(`/proc/self/task/${task}/comm`, 'utf8').startsWith('crawlkit-checkp');
    } catch {
      return false; // ended meanwhile
    }
  }).length;

async function until(condition: () => boolean, what: string, ms = 20_000): Promise<void> {
  for (const end = Date.now() + ms; !condition();) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A connection to a new WAL file with a table of blobs, the checkpointer on `thread` after each commit. */
function blobFile(name: string, thread: string) {
  const path = join(root, `${name}.db`);
  const raw = new DatabaseSync(path);
  raw.exec(`PRAGMA page_size = ${NEW_FILE_PAGE_SIZE}; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL`);
  raw.exec(`PRAGMA wal_autocheckpoint = ${CHECKPOINT_FRAMES}; CREATE TABLE blobs (body BLOB)`);
  const db = new SqliteDatabase(raw, new Lifecycle());
  const checkpointer = new WalCheckpointer(db, path, CHECKPOINT_FRAMES, thread);
  db.afterCommit(() => checkpointer.afterCommit());
  /** Writes `count` blobs, a transaction each; answers the frames the WAL held after each. */
  const write = (count: number) =>
    Array.from({ length: count }, () => {
      db.write(() => db.run('INSERT INTO blobs (body) VALUES (?)', body));
      return walState(path).frames;
    });
  return { path, raw, db, checkpointer, write };
}

/** A checkpointer's thread that takes the messages and never checkpoints: one that has fallen behind. */
const BEHIND = `require('node:worker_threads').parentPort.on('message', (m) => m === 'stop' && process.exit(0));`;
/** A checkpointer's thread that fails at its first checkpoint, leaving `<path>.failed` behind. */
const FAILING = `const { parentPort, workerData } = require('node:worker_threads');
parentPort.on('message', () => {
  require('node:fs').writeFileSync(workerData.path + '.failed', '');
  throw new Error('no');
});`;

/** A checkpointer's thread that answers a checkpoint 300 ms late, leaving `<path>.answered` just before. */
const SLOW = `const { parentPort, workerData } = require('node:worker_threads');
parentPort.on('message', (m) => {
  if (m === 'stop') process.exit(0);
  setTimeout(() => {
    require('node:fs').writeFileSync(workerData.path + '.answered', '');
    parentPort.postMessage('done');
  }, 300);
});`;

/** Another process's write to the file at `path`, answered at once: `busy` while this one holds the log's write lock. */
const anotherProcessWrites = (path: string) =>
  spawnSync(
    process.execPath,
    [
      '-e',
      `const db = new (require('node:sqlite').DatabaseSync)(process.argv[1]);
      db.exec('PRAGMA busy_timeout = 0');
      try { db.exec('BEGIN IMMEDIATE'); db.exec('ROLLBACK'); console.log('wrote'); }
      catch (e) { console.log(/locked|busy/i.test(e.message) ? 'busy' : e.message); }`,
      path,
    ],
    { encoding: 'utf8' },
  ).stdout.trim();

describe('the WAL checkpointer', () => {
  it('checkpoints the log on a thread of its own, which stops before the store closes and drops its log', async () => {
    const store = await createSqliteStore({ dir: join(root, 'store') });
    const frames: number[] = [];
    for (let i = 0; i < 20; i++) {
      await store.pages.put(page(i));
      frames.push(walState(store.path).frames);
    }
    // Named by the thread itself once it runs: under load, after the puts.
    await until(() => checkpointerThreads() === 1, 'the thread runs');
    // 6 MB written: only the thread checkpoints under 16 MB, the size past which the store's connection does.
    expect(Math.max(...frames)).toBeLessThan(CHECKPOINT_FRAMES * SAFETY_FACTOR);
    // Checkpointed after the puts (copied back), or during them, when a put then wrote the log from its start again
    // (its frames fell) and the rest stayed under the size: nothing asks for a checkpoint then.
    const restarted = frames.some((count, i) => i > 0 && count < frames[i - 1]!);
    await until(() => restarted || walState(store.path).backfilled > 0, 'the log is checkpointed');
    // The log written from its start again, once copied back.
    for (let i = 20; i < 40; i++) await store.pages.put(page(i));
    await store.close();
    expect(checkpointerThreads()).toBe(0);
    // As without the thread: the last connection to close checkpoints the log and deletes it.
    expect(existsSync(`${store.path}-wal`)).toBe(false);
    const raw = new DatabaseSync(store.path, { readOnly: true });
    expect(raw.prepare('SELECT count(*) AS n FROM pages').get()).toEqual({ n: 40 });
    raw.close();
  });

  it('starts no thread in a store that writes less than half the checkpoint size', async () => {
    const store = await createSqliteStore({ dir: join(root, 'little') });
    // A new file's schema and 3 pages: 1.5 MB of WAL.
    for (let i = 0; i < 3; i++) await store.pages.put(page(i));
    expect(walState(store.path).frames).toBeGreaterThan(150);
    expect(checkpointerThreads()).toBe(0);
    await store.close();
  });

  it('leaves the checkpoint to the thread that commits with walCheckpointer: false', async () => {
    const store = await createSqliteStore({ dir: join(root, 'off'), walCheckpointer: false });
    let most = 0;
    for (let i = 0; i < 30; i++) {
      await store.pages.put(page(i));
      most = Math.max(most, walState(store.path).frames);
    }
    expect(checkpointerThreads()).toBe(0);
    expect(most).toBeLessThan(CHECKPOINT_FRAMES + 40);
    await store.close();
  });

  it('bounds the log when the thread falls behind: the committing connection checkpoints past the safety size', async () => {
    const file = blobFile('behind', BEHIND);
    // 30 MB written, no checkpoint from the thread.
    const most = Math.max(...file.write(100));
    expect(most).toBeGreaterThan(CHECKPOINT_FRAMES * 2);
    expect(most).toBeLessThan(CHECKPOINT_FRAMES * SAFETY_FACTOR + 40);
    await file.checkpointer.stop();
    file.db.close();
  });

  it('is idle only once the thread has answered the checkpoint asked of it (a vacuum waits for that)', async () => {
    const file = blobFile('slow', SLOW);
    try {
      await file.checkpointer.idle();
      // Past the checkpoint size: asked of the thread, which answers late.
      file.write(20);
      expect(existsSync(`${file.path}.answered`)).toBe(false);
      await file.checkpointer.idle();
      expect(existsSync(`${file.path}.answered`)).toBe(true);
    } finally {
      await file.checkpointer.stop();
      file.db.close();
    }
  });

  it('gives the checkpoint back to the committing thread at the usual size when the thread dies', async () => {
    const file = blobFile('dies', FAILING);
    file.write(20);
    await until(() => existsSync(`${file.path}.failed`), 'the thread has failed');
    // Answered by its exit, once handled: the usual size back (the thread gone from /proc can come before that).
    await file.checkpointer.idle();
    expect(checkpointerThreads()).toBe(0);
    // The log past the usual size is checkpointed by the next commit, and from then on kept under it.
    expect(Math.max(...file.write(60).slice(2))).toBeLessThan(CHECKPOINT_FRAMES + 40);
    await file.checkpointer.stop();
    file.db.close();
  });

  it("keeps this process's locks on the log while its connection is open: another process cannot write beside it", async () => {
    const file = blobFile('locks', CHECKPOINTER_THREAD);
    file.write(1); // the log's index read, after the commit
    const otherWrites = () => anotherProcessWrites(file.path);
    file.raw.exec('BEGIN IMMEDIATE');
    try {
      expect(otherWrites()).toBe('busy');
      // The thread stopped and the store about to close its connection: still held. Before, stopping closed the
      // index's descriptor, which dropped every lock of the process on it, and a page committed by another process
      // during a checkpoint of the thread was lost.
      await file.checkpointer.stop();
      expect(otherWrites()).toBe('busy');
    } finally {
      file.raw.exec('ROLLBACK');
    }
    expect(otherWrites()).toBe('wrote');
    file.db.close();
    file.checkpointer.release();
  });

  // Closing the index's descriptor drops the locks of every connection of the process to the file, not only those of
  // the stores that read the index: the other store keeps hers, as a thread's RESTART holds the write lock (here a
  // transaction of the process's own connection does, to be sure of the moment).
  it("keeps the locks of the process's other connections to the file when a store closes: one without the thread", async () => {
    const { second, answers } = await closeBesideAnother('others-off', (dir) => ({ dir, walCheckpointer: false }));
    expect(answers).toEqual(['busy', 'busy', 'wrote']);
    await second.close();
  });

  it("keeps the locks of the process's other connections when a store closes: one through a symlink, with the thread", async () => {
    const { first, second, answers } = await closeBesideAnother('others-link', (dir) => {
      symlinkSync(dir, `${dir}-link`);
      return { dir: `${dir}-link` };
    });
    expect(answers).toEqual(['busy', 'busy', 'wrote']);
    await second.close();
    // The last connection closed: SQLite deleted the index, and the process holds no descriptor of it.
    expect(existsSync(`${first.path}-shm`)).toBe(false);
    const open = readdirSync('/proc/self/fd').map(openFile);
    expect(open.filter((file) => file.startsWith(`${first.path}-shm`))).toEqual([]);
  });
});

/**
 * Two stores of this process on one new file in `root/<name>`, the second's options from `secondOf(dir)`, each having
 * put a page; the first closed while a connection of the process holds the log's write lock. `answers`: another
 * process's write before the close, after it, and once the lock is let go.
 */
async function closeBesideAnother(name: string, secondOf: (dir: string) => SqliteStoreOptions) {
  const dir = join(root, name);
  mkdirSync(dir);
  const first = await createSqliteStore({ dir });
  const second = await createSqliteStore(secondOf(dir));
  await first.pages.put(page(0)); // the index read, after the commit
  await second.pages.put(page(1));
  const raw = new DatabaseSync(first.path);
  const answers: string[] = [];
  raw.exec('BEGIN IMMEDIATE');
  try {
    answers.push(anotherProcessWrites(first.path));
    await first.close();
    answers.push(anotherProcessWrites(first.path));
  } finally {
    raw.exec('ROLLBACK');
    raw.close();
  }
  answers.push(anotherProcessWrites(first.path));
  return { first, second, answers };
}

/** The file a descriptor of this process has open ('' when it closed meanwhile). */
function openFile(fd: string): string {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return '';
  }
}
