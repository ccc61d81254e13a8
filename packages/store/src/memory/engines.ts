import { countPage, engineStoreLimits } from '../engine-counts.js';
import type { Lifecycle } from '../lifecycle.js';
import type { EngineStore, EngineStoreLimits, HostEngineStats } from '../types.js';
import type { MemoryJobState } from './job-state.js';

export class MemoryEngineStore implements EngineStore {
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
