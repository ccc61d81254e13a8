import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { WarcWriter } from '@crawlkit/fetcher';
import type { Store } from '@crawlkit/store';

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
  readonly #open = new Map<string, WarcWriter>();

  constructor(dir: string) {
    this.dir = dir;
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
