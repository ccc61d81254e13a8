import { mkdtemp, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { WarcWriter } from '@crawlkit/fetcher';
import { makeDirLevel, notOwnedReason, tempDirProblem, unwritableDirReason, userTag } from '@crawlkit/options/temp-dir';
import type { Store } from '@crawlkit/store';

import { CrawlkitError } from '../errors.js';

/**
 * Where the recordings of `record: true` go: `<storeDir>/warc/` beside the on-disk store, and this user's folder in
 * the system's temporary directory (`<tmp>/crawlkit-warc-<uid>/`, made 0700; `crawlkit-warc-<user name>` on Windows)
 * for a store that keeps nothing on disk (`store: 'memory'`, a page cache alone), since the recording must outlive the
 * call that asked for it. Per user, as the temporary directory is shared by the machine's users.
 */
export function recordingDir(storeDir: string, store: Store): string {
  return store.ephemeral ? join(tmpdir(), `crawlkit-warc-${userTag()}`) : resolve(storeDir, 'warc');
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
   * cannot make, a file where the folder goes) is `RECORDING_UNWRITABLE` naming it, where the writer's own failure
   * came after the pages, as a `warcFile` naming no file (a job) or an `UNKNOWN_ERROR` (a scrape). In the temporary
   * directory the folder is made 0700, and one that is a symbolic link or another user's is refused as well: another
   * user may have planted it to read or redirect the recordings.
   */
  async prepare(): Promise<void> {
    // A folder that cannot be made is its parent's fault (the temporary directory, or the store's directory).
    let failing = resolve(this.dir, '..');
    try {
      await makeDirLevel(failing);
      await makeDirLevel(this.dir, this.#inTemp ? 0o700 : undefined);
      failing = this.dir;
      if (this.#inTemp) await this.#ownFolder();
      // A file made and removed says what a permission check cannot: root on a read-only file system, a file there.
      await rmdir(await mkdtemp(join(this.dir, '.writable-')));
    } catch (error) {
      if (error instanceof CrawlkitError) throw error;
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

  /** Refuses a recordings folder in the temporary directory that is not this user's own (a link, another's). */
  async #ownFolder(): Promise<void> {
    const reason = await notOwnedReason(this.dir);
    if (reason === undefined) return;
    throw new CrawlkitError(
      'RECORDING_UNWRITABLE',
      `The recording of record: true goes in ${this.dir} (in the temporary directory), which ${reason}: another ` +
        'user of this machine may have put it there to read or redirect the recordings, so crawlkit writes nothing ' +
        "in it. Remove it if it is not yours, or set TMPDIR to a directory of this user's own (os.tmpdir() reads it).",
    );
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
