/**
 * The storage contract of crawlkit. A backend (memory, SQLite, later Redis) implements `Store`; everything above it
 * (cache policy, job scheduling, webhooks, change tracking) lives in `crawlkit` and talks only to this interface.
 *
 * Backends are byte transports: every payload (`value`, `request`, `document`, `payload`) is an opaque string that
 * the caller serialised (JSON), and a page's `body` opaque bytes. Backends never parse them. Times are epoch
 * milliseconds.
 *
 * Every method may be called concurrently from many async tasks of one process, and (for the SQLite and Redis
 * backends) from several processes sharing the same store. Methods that say "atomic" must stay correct under that.
 *
 * Failures reject with a `StoreError` (see `errors.ts`) carrying a stable `code`. Every method of a closed store
 * rejects with `StoreClosedError` (`STORE_CLOSED`).
 */

import type { SecretBox } from '../secrets.js';

import type { PageStore } from './pages.js';
import type { JobStore } from './jobs.js';
import type { TaskStore } from './tasks.js';
import type { ResultStore } from './results.js';
import type { DeliveryStore } from './deliveries.js';
import type { EngineStore } from './engines.js';
import type { HistoryStore } from './history.js';
import type { SearchIndex } from './search.js';
import type { CounterStore } from './counters.js';
import type { ScheduleStore } from './schedules.js';

/** How much more a store can write, as its backend measures it. */
export interface StoreSpace {
  /**
   * Bytes the store can still write: the space free to an unprivileged writer on the database file's disk (SQLite),
   * `maxmemory` less `used_memory` (Redis). Undefined when nothing bounds it (Redis without `maxmemory`).
   */
  freeBytes?: number;
  /**
   * The store's whole room, used or not: the size of the database file's disk (SQLite), `maxmemory` (Redis).
   * Undefined when nothing bounds it.
   */
  totalBytes?: number;
}

/**
 * What every backend implements: the page cache and its lifecycle. A backend that only caches pages (a shared
 * cache for many engines, a read-only snapshot) implements this and nothing more; crawlkit then keeps jobs and change
 * history in memory (see `CrawlkitOptions.store`).
 */
export interface PageCache {
  /** `memory`, `sqlite`, `redis`, ... */
  readonly kind: string;
  /** True when nothing outlives the process. */
  readonly ephemeral: boolean;
  readonly pages: PageStore;
  /**
   * The search index of the pages and results this store holds, when the backend keeps one (memory, SQLite and
   * Redis do, unless created with `searchIndex: false`). A backend without it is still a valid page cache: search
   * then has no local source.
   */
  readonly search?: SearchIndex;
  /**
   * How much more the store can write (what `serve`'s `/ready` checks), when the backend can tell: SQLite and Redis
   * can, the memory store cannot.
   */
  space?(): Promise<StoreSpace>;
  /**
   * Resolves when the store can be written; rejects with `StoreBusyError` (`STORE_BUSY`) while another process has
   * kept its writes waiting for the write lock longer than the busy timeout (what `serve`'s `/ready` checks beside a
   * read). SQLite has it; the memory store and Redis have no lock another process can hold, and no such method.
   */
  writable?(): Promise<void>;
  /** Flushes and releases resources. Idempotent. Further calls of any other method reject with `StoreClosedError`. */
  close(): Promise<void>;
}

/** What a backend that runs crawls and batches implements beside the page cache. */
export interface JobBackend {
  readonly jobs: JobStore;
  /** Each job's tasks (its frontier). */
  readonly tasks: TaskStore;
  /** Each job's result documents, errors and robots-blocked URLs. */
  readonly results: ResultStore;
  /** The webhook outbox. */
  readonly deliveries: DeliveryStore;
  /** Per job and host, pages that needed the browser or not. */
  readonly engines: EngineStore;
  /**
   * Encrypts values the store must keep but nobody reading its files may see (a job's header values, which its
   * resume needs), with a key kept beside the data: a key file for SQLite, a key every process shares for Redis, a
   * key in memory for the memory store. A store without one cannot hold such values (the caller refuses them).
   */
  readonly secrets?: SecretBox;
  /** Named counters (the built-in stores have them); without them, what needs one keeps it in this process. */
  readonly counters?: CounterStore;
  /**
   * Recurring crawls and scrapes (the built-in stores have them); without them, schedules cannot be created on this
   * store.
   */
  readonly schedules?: ScheduleStore;
}

/** What a backend that keeps change-tracking snapshots implements. */
export interface HistoryBackend {
  /** Change-tracking snapshots per page and tag. */
  readonly history: HistoryStore;
}

/** A full backend: the page cache, jobs and change history. Memory, SQLite and Redis implement it. */
export interface Store extends PageCache, JobBackend, HistoryBackend {}

/** Whether `store` is a full `Store`, not only a `PageCache`. */
export function isFullStore(store: PageCache): store is Store {
  const s = store as Partial<Store>;
  return ['jobs', 'tasks', 'results', 'deliveries', 'engines', 'history'].every(
    (m) => s[m as keyof Store] !== undefined,
  );
}
