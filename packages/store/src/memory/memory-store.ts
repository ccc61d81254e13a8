import { withinBounds } from '../counters.js';
import { countPage, engineStoreLimits } from '../engine-counts.js';
import { DeliveryExistsError } from '../errors.js';
import { Lifecycle } from '../lifecycle.js';
import { nonNegativeInteger, positiveInteger } from '../options.js';
import type {
  CounterBounds,
  CounterStore,
  Delivery,
  DeliveryStore,
  EngineStore,
  EngineStoreLimits,
  HistoryEntry,
  HistoryStore,
  HostEngineStats,
  Store,
} from '../types.js';
import { MemoryJobState, MemoryJobStore, MemoryResultStore, MemoryTaskStore } from './memory-jobs.js';
import { MemoryPageStore } from './memory-pages.js';
import { memorySecretBox } from '../secrets.js';

export interface MemoryStoreOptions {
  /**
   * Cap on the total size of cached page values, in bytes (UTF-8). A `put` that goes over it evicts the oldest pages
   * (by `cachedAt`) down to 90% of the cap. `Infinity` disables the cap.
   * @default 134_217_728 (128 MiB)
   */
  maxPageBytes?: number;
  /**
   * Change-tracking snapshots kept per (url, tag); older ones are dropped on `append`. Change tracking only reads the
   * latest, so a few are plenty.
   * @default 10
   */
  maxHistoryPerUrl?: number;
}

const DRIVER_NAME = 'memory';

/** A store that keeps everything in this process (tests, `zeroDataRetention`). Nothing touches the disk. */
export function createMemoryStore(options: MemoryStoreOptions = {}): Store {
  const maxPageBytes = nonNegativeInteger('maxPageBytes', options.maxPageBytes, 128 * 1024 ** 2, true);
  const maxHistoryPerUrl = positiveInteger('maxHistoryPerUrl', options.maxHistoryPerUrl, 10);
  const life = new Lifecycle();
  const jobState = new MemoryJobState();
  const deliveries = new MemoryDeliveryStore(life, jobState);
  jobState.onDelete = (id) => deliveries.deleteJob(id);
  return {
    kind: DRIVER_NAME,
    ephemeral: true,
    pages: new MemoryPageStore(life, maxPageBytes),
    jobs: new MemoryJobStore(life, jobState),
    tasks: new MemoryTaskStore(life, jobState),
    results: new MemoryResultStore(life, jobState),
    deliveries,
    history: new MemoryHistoryStore(life, maxHistoryPerUrl),
    secrets: memorySecretBox(),
    engines: new MemoryEngineStore(life, jobState),
    counters: new MemoryCounterStore(life),
    close: () => {
      life.close();
      return Promise.resolve();
    },
  };
}

/* ------------------------------------------------------------------------------------------- Internal helpers -- */

class MemoryDeliveryStore implements DeliveryStore {
  readonly #life: Lifecycle;
  readonly #jobs: MemoryJobState;
  readonly #byId = new Map<string, Delivery>();
  readonly #lastSeq = new Map<string, number>();

  constructor(life: Lifecycle, jobs: MemoryJobState) {
    this.#life = life;
    this.#jobs = jobs;
  }

  deleteJob(jobId: string): void {
    this.#lastSeq.delete(jobId);
    for (const [id, delivery] of this.#byId) if (delivery.jobId === jobId) this.#byId.delete(id);
  }

  enqueue(input: Omit<Delivery, 'seq' | 'state' | 'attempts'>): Promise<Delivery> {
    return this.#life.run(() => {
      this.#jobs.require(input.jobId);
      if (this.#byId.has(input.id)) throw new DeliveryExistsError(input.id);
      const seq = (this.#lastSeq.get(input.jobId) ?? 0) + 1;
      this.#lastSeq.set(input.jobId, seq);
      const delivery: Delivery = {
        id: input.id,
        jobId: input.jobId,
        seq,
        payload: input.payload,
        state: 'pending',
        attempts: 0,
        nextAttemptAt: input.nextAttemptAt,
      };
      if (input.lastError !== undefined) delivery.lastError = input.lastError;
      this.#byId.set(delivery.id, delivery);
      return { ...delivery };
    });
  }

  due(now: number, limit: number): Promise<Delivery[]> {
    return this.#life.run(() => {
      const heads = new Map<string, Delivery>();
      for (const delivery of this.#byId.values()) {
        if (delivery.state !== 'pending') continue;
        const head = heads.get(delivery.jobId);
        if (!head || delivery.seq < head.seq) heads.set(delivery.jobId, delivery);
      }
      return [...heads.values()]
        .filter((d) => d.nextAttemptAt <= now)
        .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || a.seq - b.seq)
        .slice(0, Math.max(0, limit))
        .map((d) => ({ ...d }));
    });
  }

  update(
    id: string,
    patch: Partial<Pick<Delivery, 'state' | 'attempts' | 'nextAttemptAt' | 'lastError'>>,
  ): Promise<void> {
    return this.#life.run(() => {
      const delivery = this.#byId.get(id);
      if (!delivery) return;
      if (patch.state !== undefined) delivery.state = patch.state;
      if (patch.attempts !== undefined) delivery.attempts = patch.attempts;
      if (patch.nextAttemptAt !== undefined) delivery.nextAttemptAt = patch.nextAttemptAt;
      if (Object.hasOwn(patch, 'lastError')) {
        if (patch.lastError === undefined) delete delivery.lastError;
        else delivery.lastError = patch.lastError;
      }
    });
  }

  pending(jobId?: string): Promise<Delivery[]> {
    return this.#life.run(() => {
      return [...this.#byId.values()]
        .filter((d) => d.state === 'pending' && (jobId === undefined || d.jobId === jobId))
        .sort((a, b) => (a.jobId < b.jobId ? -1 : a.jobId > b.jobId ? 1 : a.seq - b.seq))
        .map((d) => ({ ...d }));
    });
  }
}

class MemoryEngineStore implements EngineStore {
  readonly #life: Lifecycle;
  readonly #jobs: MemoryJobState;

  constructor(life: Lifecycle, jobs: MemoryJobState) {
    this.#life = life;
    this.#jobs = jobs;
  }

  get(jobId: string, host: string): Promise<HostEngineStats | undefined> {
    return this.#life.run(() => {
      const stats = this.#jobs.jobs.get(jobId)?.engines.get(host);
      return stats ? { ...stats } : undefined;
    });
  }

  record(
    jobId: string,
    host: string,
    page: 'http' | 'browser',
    limits?: EngineStoreLimits,
  ): Promise<HostEngineStats | undefined> {
    return this.#life.run(() => {
      const { maxCount, maxHosts } = engineStoreLimits(limits);
      const engines = this.#jobs.require(jobId).engines;
      const old = engines.get(host);
      if (!old && engines.size >= maxHosts) return undefined;
      const stats = countPage(old, page, maxCount);
      engines.set(host, stats);
      return { ...stats };
    });
  }
}

class MemoryCounterStore implements CounterStore {
  readonly #life: Lifecycle;
  readonly #values = new Map<string, number>();

  constructor(life: Lifecycle) {
    this.#life = life;
  }

  get(name: string): Promise<number> {
    return this.#life.run(() => this.#values.get(name) ?? 0);
  }

  add(name: string, delta: number, bounds?: CounterBounds): Promise<number | undefined> {
    return this.#life.run(() => {
      const value = (this.#values.get(name) ?? 0) + delta;
      if (!withinBounds(value, bounds)) return undefined;
      this.#values.set(name, value);
      return value;
    });
  }
}

class MemoryHistoryStore implements HistoryStore {
  readonly #life: Lifecycle;
  readonly #keep: number;
  readonly #entries = new Map<string, HistoryEntry[]>();

  constructor(life: Lifecycle, keep: number) {
    this.#life = life;
    this.#keep = keep;
  }

  latest(url: string, tag: string): Promise<HistoryEntry | undefined> {
    return this.#life.run(() => {
      const list = this.#entries.get(historyKey(url, tag));
      const last = list?.[list.length - 1];
      return last ? { ...last } : undefined;
    });
  }

  append(entry: HistoryEntry): Promise<void> {
    return this.#life.run(() => {
      const key = historyKey(entry.url, entry.tag);
      const list = this.#entries.get(key) ?? [];
      // Kept sorted by scrapedAt; an equal scrapedAt goes after the existing ones (last appended wins).
      let index = list.length;
      while (index > 0 && list[index - 1]!.scrapedAt > entry.scrapedAt) index--;
      list.splice(index, 0, { url: entry.url, tag: entry.tag, scrapedAt: entry.scrapedAt, value: entry.value });
      if (list.length > this.#keep) list.splice(0, list.length - this.#keep);
      this.#entries.set(key, list);
    });
  }
}

function historyKey(url: string, tag: string): string {
  return `${tag}\u0000${url}`;
}
