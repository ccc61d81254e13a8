import { engineStoreLimits, type EngineStore, type EngineStoreLimits, type HostEngineStats } from '@crawlkit/store';

import type { Lifecycle } from './lifecycle.js';
import { rethrowNoJob } from './jobs.js';
import type { ScriptRunner } from './scripts-runner.js';

/** What jobs learned per host about the engine their pages need: one hash per job, `<http>:<browser>` by host. */
export class RedisEngineStore implements EngineStore {
  readonly #life: Lifecycle;
  readonly #redis: ScriptRunner;

  constructor(life: Lifecycle, redis: ScriptRunner) {
    this.#life = life;
    this.#redis = redis;
  }

  get(jobId: string, host: string): Promise<HostEngineStats | undefined> {
    return this.#life.run(async () => {
      const value = await this.#redis.client.hget(this.#redis.key('j', jobId, 'eng'), host);
      const counts = value ? /^(\d+):(\d+)$/.exec(value) : null;
      return counts ? { http: Number(counts[1]), browser: Number(counts[2]) } : undefined;
    });
  }

  record(
    jobId: string,
    host: string,
    page: 'http' | 'browser',
    limits?: EngineStoreLimits,
  ): Promise<HostEngineStats | undefined> {
    return this.#life.run(async () => {
      const { maxCount, maxHosts } = engineStoreLimits(limits);
      let counts: unknown;
      try {
        counts = await this.#redis.run('ENGINE_RECORD', jobId, host, page, maxCount, maxHosts);
      } catch (cause) {
        rethrowNoJob(cause, jobId);
      }
      if (!Array.isArray(counts)) return undefined;
      return { http: Number(counts[0]), browser: Number(counts[1]) };
    });
  }
}
