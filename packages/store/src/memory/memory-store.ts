import { Lifecycle } from '../lifecycle.js';
import { boolean, nonNegativeInteger, positiveInteger } from '../options.js';
import type { Store } from '../types.js';
import { memorySecretBox } from '../secrets.js';
import { MemoryDeliveryStore } from './deliveries.js';
import { MemoryCounterStore } from './counters.js';
import { MemoryScheduleStore } from './schedules.js';
import { MemoryEngineStore } from './engines.js';
import { MemoryHistoryStore } from './history.js';
import { MemoryJobState } from './job-state.js';
import { MemoryJobStore } from './jobs.js';
import { MemoryPageStore } from './pages.js';
import { MemoryResultStore } from './results.js';
import { MemorySearchIndex } from './search.js';
import { MemoryTaskStore } from './tasks.js';

export interface MemoryStoreOptions {
  /**
   * Cap on the total size of cached page values, in bytes (UTF-8). A `put` that goes over it evicts the oldest pages
   * (by `cachedAt`) down to 90% of the cap. `Infinity` disables the cap.
   * @default 134_217_728 (128 MiB)
   */
  maxPageBytes?: number;
  /**
   * Entries kept per (url, tag) of the history (change-tracking snapshots, crawlkit's records); older ones are
   * dropped on `append`. crawlkit reads only the latest of each: more are kept for a reader of your own.
   * @default 1
   */
  maxHistoryPerUrl?: number;
  /**
   * Keep a search index of the pages and results stored (`store.search`). Without it nothing is searchable locally.
   * @default true
   */
  searchIndex?: boolean;
}

const DRIVER_NAME = 'memory';

/** A store that keeps everything in this process (tests, `zeroDataRetention`). Nothing touches the disk. */
export function createMemoryStore(options: MemoryStoreOptions = {}): Store {
  const maxPageBytes = nonNegativeInteger('maxPageBytes', options.maxPageBytes, 128 * 1024 ** 2, true);
  const maxHistoryPerUrl = positiveInteger('maxHistoryPerUrl', options.maxHistoryPerUrl, 1);
  const life = new Lifecycle();
  const jobState = new MemoryJobState();
  const deliveries = new MemoryDeliveryStore(life, jobState);
  const search = boolean('searchIndex', options.searchIndex, true) ? new MemorySearchIndex(life) : undefined;
  jobState.onDelete = (id) => {
    deliveries.deleteJob(id);
    search?.removeJob(id);
  };
  return {
    kind: DRIVER_NAME,
    ephemeral: true,
    pages: new MemoryPageStore(life, maxPageBytes, search),
    ...(search ? { search } : {}),
    jobs: new MemoryJobStore(life, jobState),
    tasks: new MemoryTaskStore(life, jobState, search),
    results: new MemoryResultStore(life, jobState),
    deliveries,
    history: new MemoryHistoryStore(life, maxHistoryPerUrl),
    secrets: memorySecretBox(),
    engines: new MemoryEngineStore(life, jobState),
    counters: new MemoryCounterStore(life),
    schedules: new MemoryScheduleStore(life),
    close: () => {
      life.close();
      return Promise.resolve();
    },
  };
}
