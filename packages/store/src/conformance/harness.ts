import { afterEach } from 'vitest';
import type { JobRecord, PageCache, Store, TaskInput } from '../types.js';

/** Options every backend factory must honour in the conformance suite. */
export interface ConformanceStoreOptions {
  maxPageBytes?: number;
  maxHistoryPerUrl?: number;
  /** Whether the store keeps a search index (`store.search`). @default true */
  searchIndex?: boolean;
}

export type StoreFactory = (options: ConformanceStoreOptions) => Store | Promise<Store>;

/** A factory of a backend that only caches pages. */
export type PageCacheFactory = (options: ConformanceStoreOptions) => PageCache | Promise<PageCache>;

/** Opens stores through `factory` and closes each one after its test. */
export function useStores<T extends PageCache = Store>(
  factory: (options: ConformanceStoreOptions) => T | Promise<T>,
): (options?: ConformanceStoreOptions) => Promise<T> {
  const open: T[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((store) => store.close()));
  });
  return async (options = {}) => {
    const store: unknown = await factory(options);
    // A factory written `(options) => { createMyStore(options); }` returns nothing: say so, once per test, rather
    // than "Cannot read properties of undefined" from inside each of them.
    if (typeof store !== 'object' || store === null || !('pages' in store)) {
      throw new TypeError(
        `The conformance suite's factory returned ${store === null ? 'null' : typeof store}, not a store: it must ` +
          'return (or resolve to) a fresh, empty store opened with the options it is given.',
      );
    }
    open.push(store as T);
    return store as T;
  };
}

let counter = 0;

/** A fresh job record; ids grow so that `list` order is predictable. */
export function jobRecord(overrides: Partial<JobRecord> = {}): JobRecord {
  counter++;
  return {
    id: `job-${String(counter).padStart(6, '0')}`,
    kind: 'crawl',
    status: 'scraping',
    request: JSON.stringify({ url: 'https://example.com' }),
    createdAt: 1_000 + counter,
    updatedAt: 1_000 + counter,
    creditsUsed: 0,
    storedBytes: 0,
    ...overrides,
  };
}

/** Task inputs with keys `${prefix}0 .. ${prefix}{n-1}`. */
export function taskInputs(n: number, prefix = 'k'): TaskInput[] {
  return Array.from({ length: n }, (_, i) => ({
    key: `${prefix}${i}`,
    url: `https://example.com/${prefix}${i}`,
    depth: 1,
  }));
}

/** Creates an empty job (no tasks) and returns its id. */
export async function createJob(
  store: Store,
  overrides: Partial<JobRecord> = {},
  tasks: TaskInput[] = [],
): Promise<string> {
  const record = jobRecord(overrides);
  await store.jobs.create(record, tasks);
  return record.id;
}
