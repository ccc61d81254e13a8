import { afterEach, beforeEach } from 'vitest';
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

/**
 * Skips the tests of the `describe` block it is called in when the factory's stores lack an optional part of the
 * contracts (`counters`, `schedules`, `search`): a store without one is held to the rest. The first test opens a
 * store to look, and closes it.
 */
export function skipWithout<T extends PageCache>(
  factory: (options: ConformanceStoreOptions) => T | Promise<T>,
  part: keyof Store,
): void {
  let present: boolean | undefined;
  beforeEach(async (ctx) => {
    if (present === undefined) {
      const store = await factory({});
      try {
        present = (store as Partial<Store>)[part] !== undefined;
      } finally {
        await store.close();
      }
    }
    if (!present) ctx.skip();
  });
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
