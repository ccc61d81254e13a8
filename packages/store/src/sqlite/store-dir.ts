import { accessSync, chmodSync, closeSync, constants, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import { StoreError } from '../errors.js';

/**
 * Creates `dir` and its missing parents (mode 0700), one level at a time: Node's recursive `mkdirSync` loops for ever,
 * the event loop blocked, where `mkdir` answers ENOENT under a parent that exists (a path below /proc or /sys).
 * Another process creating the same directory at once (test files sharing a store) is no failure.
 */
export function makeStoreDir(dir: string): void {
  const missing: string[] = [];
  for (let at = resolve(dir); !exists(at); at = dirname(at)) {
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  for (const path of missing) {
    try {
      mkdirSync(path, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(path).isDirectory()) throw error;
    }
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

const REASONS: Record<string, string> = {
  ENOTDIR: 'a part of the path is a file, not a directory',
  EEXIST: 'a part of the path is a file, not a directory',
  EACCES: 'this process may not write there',
  EPERM: 'this process may not write there',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  ENOENT: 'the file system there takes no new directory',
};

/**
 * Throws `STORE_OPEN_FAILED` when SQLite could not open the store file at `path`: it keeps the write-ahead log and its
 * index (`-wal`, `-shm`) beside the file, so a file whose directory this process cannot write, and which lacks them,
 * fails with SQLite's "attempt to write a readonly database", which names neither the directory nor what to do.
 */
export function assertWritableDir(path: string): void {
  if (existsSync(`${path}-wal`) && existsSync(`${path}-shm`)) return;
  const dir = dirname(path);
  try {
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw new StoreError('STORE_OPEN_FAILED', storeDirProblem(dir, error, true), { cause: error });
  }
}

/** What a failure to create the store in `dir` (or to open the one there: `opening`) says: why, and what to do. */
export function storeDirProblem(dir: string, error: unknown, opening = false): string {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const why = REASONS[code] ?? (error instanceof Error ? error.message : String(error));
  return (
    `Cannot ${opening ? 'open' : 'create'} the store in ${dir}: ${why}${code ? ` (${code})` : ''}` +
    `${opening ? ', and SQLite writes its log (-wal, -shm files) beside the store file' : ''}. Point storeDir ` +
    '(--store, or CRAWLKIT_STORE in the environment of a command) at a directory this process can write, or use ' +
    "store: 'memory'."
  );
}

/**
 * Creates the database file with mode 0600 before SQLite opens it (SQLite gives its `-wal` and `-shm` files the
 * database's mode), and takes an existing store's files down to 0600: they hold every page and job.
 */
export function makePrivate(path: string): void {
  // Never a descriptor of an existing file: closing it would drop the locks of this process's other connections.
  if (!existsSync(path)) {
    try {
      closeSync(openSync(path, 'wx', 0o600));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      chmodSync(file, 0o600);
    } catch (error) {
      // A file that is not there yet gets its mode at creation; one owned by another user is left as it is.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'EPERM') throw error;
    }
  }
}
