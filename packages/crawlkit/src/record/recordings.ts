import { mkdtemp, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { WarcWriter } from '@crawlkit/fetcher';
import { makeDirLevel, tempDirProblem, unwritableDirReason } from '@crawlkit/options/temp-dir';
import type { Store } from '@crawlkit/store';

import { CrawlkitError } from '../errors.js';

/**
 * Where the recordings of `record: true` go: `<storeDir>/warc/` beside the on-disk store, and the system's temporary
 * directory (`<tmp>/crawlkit-warc/`) for a store that keeps nothing on disk (`store: 'memory'`, a page cache alone),
 * since the recording must outlive the call that asked for it.
 */
export function recordingDir(storeDir: string, store: Store): string {
  return store.ephemeral ? join(tmpdir(), 'crawlkit-warc') : resolve(storeDir, 'warc');
}

/**
 * The WARC files being written, by job (or scrape) id: one writer per id while it runs in this process. A job resumed
 * later appends to its file (a second `warcinfo` record marks where), so a URL fetched before and after a restart may
 * be in it twice.
 */
export class Recordings {
  readonly dir: string;
  /** Whether `dir` is in the temporary directory (a store that keeps nothing on disk), which TMPDIR moves. */
  readonly #inTemp: boolean;
  readonly #open = new Map<string, WarcWriter>();

  constructor(dir: string, inTemp = false) {
    this.dir = dir;
    this.#inTemp = inTemp;
  }

  /**
   * Makes `dir` (and a temporary directory that is not there) and checks that this process can write in it, before a
   * call with `record: true` fetches anything: a folder that cannot take the file (TMPDIR naming a folder this user
   * cannot make, `crawlkit-warc` made by another user) is `RECORDING_UNWRITABLE` naming it, where the writer's own
   * failure came after the pages, as a `warcFile` naming no file (a job) or an `UNKNOWN_ERROR` (a scrape).
   */
  async prepare(): Promise<void> {
    // A folder that cannot be made is its parent's fault (the temporary directory, or the store's directory).
    let failing = resolve(this.dir, '..');
    try {
      await makeDirLevel(failing);
      await makeDirLevel(this.dir);
      failing = this.dir;
      // A file made and removed says what a permission check cannot: root on a read-only file system, a file there.
      await rmdir(await mkdtemp(join(this.dir, '.writable-')));
    } catch (error) {
      const what = 'The recording of record: true';
      throw new CrawlkitError(
        'RECORDING_UNWRITABLE',
        this.#inTemp
          ? tempDirProblem(what, error, failing)
          : `${what} goes in ${failing}, which ${unwritableDirReason(error)}. Point storeDir at a directory this ` +
              'process can write.',
        { cause: error },
      );
    }
  }

  /** The path of `id`'s recording. */
  pathOf(id: string): string {
    return join(this.dir, `${id}.warc.gz`);
  }

  /** The writer of `id`'s recording (the same one while it is open); `info` goes in its `warcinfo` record. */
  open(id: string, info: Record<string, string>): WarcWriter {
    let writer = this.#open.get(id);
    if (!writer) {
      writer = new WarcWriter(this.pathOf(id), info);
      this.#open.set(id, writer);
    }
    return writer;
  }

  /** Flushes and closes `id`'s recording, if open here. */
  async close(id: string): Promise<void> {
    const writer = this.#open.get(id);
    if (!writer) return;
    this.#open.delete(id);
    await writer.close();
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.#open.keys()].map((id) => this.close(id)));
  }
}
