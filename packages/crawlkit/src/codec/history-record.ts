/**
 * A record kept as the latest entry of its (key, tag) in the store's history (schedule runs, monitors and their
 * checks): read and written through its codec, so every store kind keeps it.
 */
import type { Store } from '@crawlkit/store';

import type { RecordCodec } from './record-codec.js';

/**
 * The start of every record's tag: the rest of the history is the `changeTracking` format's, which `cache prune`
 * prunes by age (`pruneHistory`); these go with what owns them.
 */
export const RECORD_TAG_PREFIX = 'crawlkit:';

export interface HistoryRecord<T> {
  /** The latest value under `key`, or undefined when none was written. */
  read(store: Store, key: string): Promise<T | undefined>;
  /** Writes `value` under `key`, stamped `at` (epoch ms; the latest stamp is what `read` returns). */
  write(store: Store, key: string, value: T, at: number): Promise<void>;
  /** Deletes every value under `key` (nothing in a store whose history cannot delete). */
  delete(store: Store, key: string): Promise<void>;
}

export function historyRecord<T>(tag: `${typeof RECORD_TAG_PREFIX}${string}`, codec: RecordCodec<T>): HistoryRecord<T> {
  return {
    async read(store, key) {
      const entry = await store.history.latest(key, tag);
      return entry ? codec.decode(entry.value) : undefined;
    },
    async write(store, key, value, at) {
      await store.history.append({ url: key, tag, scrapedAt: at, value: codec.encode(value) });
    },
    async delete(store, key) {
      await store.history.delete?.(key, tag);
    },
  };
}
