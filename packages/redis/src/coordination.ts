import type { Coordination, TaskInput, TaskState } from '@crawlkit/store';

import { Lifecycle } from './store/lifecycle.js';
import { parseTaskInput } from './store/jobs.js';
import type { ScriptRunner } from './store/scripts-runner.js';

/**
 * What workers share besides the store: per-host request slots (so `delay`, `Crawl-delay` and the rest after a
 * 429/503 hold across workers, timed by the Redis server's clock), per-job running slots (so `maxConcurrency` holds
 * across workers), named locks, and read access to task states: the `Coordination` of the backend contract.
 */
export class RedisCoordination implements Coordination {
  readonly #redis: ScriptRunner;
  readonly #life: Lifecycle;

  /** `life`: the store's, whose client `redis` uses (its availability, its error mapping). */
  constructor(redis: ScriptRunner, life = new Lifecycle()) {
    this.#redis = redis;
    this.#life = life;
  }

  /** Runs a script through the store's lifecycle. */
  #run(name: Parameters<ScriptRunner['run']>[0], ...args: (string | number)[]): Promise<unknown> {
    return this.#life.run(() => this.#redis.run(name, ...args));
  }

  async takeHostSlot(scope: string, host: string, delayMs: number): Promise<number> {
    return Number(await this.#run('HOST_SLOT', scope, host, Math.max(0, Math.ceil(delayMs)), 0));
  }

  async pauseHost(scope: string, host: string, waitMs: number): Promise<void> {
    if (waitMs <= 0) return;
    await this.#run('HOST_SLOT', scope, host, 0, Math.ceil(waitMs));
  }

  async takeJobSlot(jobId: string, holder: string, limit: number, leaseMs: number): Promise<boolean> {
    return Number(await this.#run('JOB_SLOT_TAKE', jobId, holder, limit, Math.max(1, Math.ceil(leaseMs)))) === 1;
  }

  async releaseJobSlot(jobId: string, holder: string): Promise<void> {
    await this.#run('JOB_SLOT_RELEASE', jobId, holder);
  }

  async tryLock(name: string, owner: string, ttlMs: number): Promise<boolean> {
    return Number(await this.#run('LOCK_TAKE', name, owner, Math.max(1, Math.ceil(ttlMs)))) === 1;
  }

  async releaseLock(name: string, owner: string): Promise<void> {
    await this.#run('LOCK_RELEASE', name, owner);
  }

  async taskState(jobId: string, key: string): Promise<TaskState | 'dropped' | undefined> {
    const state = await this.#life.run(() => this.#redis.client.hget(this.#redis.key('j', jobId, 's'), key));
    return (state ?? undefined) as TaskState | 'dropped' | undefined;
  }

  async queuedTasks(jobId: string, offset: number, limit: number): Promise<TaskInput[]> {
    const flat = (await this.#run('TASK_QUEUED', jobId, offset, limit)) as string[];
    const tasks: TaskInput[] = [];
    for (let i = 0; i < flat.length; i += 2) tasks.push(parseTaskInput(flat[i]!, flat[i + 1]!));
    return tasks;
  }
}
