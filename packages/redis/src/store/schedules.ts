import type { ScheduleStore, StoredSchedule } from '@crawlkit/store';

import type { Lifecycle } from './lifecycle.js';
import type { ScriptRunner } from './scripts-runner.js';

/**
 * Schedules in three keys of the prefix (`schedules`, `schedule-next`, `schedule-order`, see
 * `scripts/schedule-scripts.ts`); a claim is one script, so of several processes on the store one takes each firing.
 */
export class RedisScheduleStore implements ScheduleStore {
  readonly #life: Lifecycle;
  readonly #redis: ScriptRunner;

  constructor(life: Lifecycle, redis: ScriptRunner) {
    this.#life = life;
    this.#redis = redis;
  }

  put(schedule: StoredSchedule): Promise<void> {
    return this.#life.run(async () => {
      await this.#redis.run('SCHEDULE_PUT', schedule.id, schedule.value, schedule.nextRunAt, schedule.createdAt);
    });
  }

  get(id: string): Promise<StoredSchedule | undefined> {
    return this.#life.run(async () => (await this.#read([id]))[0]);
  }

  list(): Promise<StoredSchedule[]> {
    return this.#life.run(async () =>
      this.#read(await this.#redis.client.zrange(this.#redis.key('schedule-order'), '0', '-1')),
    );
  }

  delete(id: string): Promise<boolean> {
    return this.#life.run(async () => Number(await this.#redis.run('SCHEDULE_DELETE', id)) > 0);
  }

  claim(id: string, dueAt: number, nextRunAt: number): Promise<boolean> {
    return this.#life.run(async () => Number(await this.#redis.run('SCHEDULE_CLAIM', id, dueAt, nextRunAt)) === 1);
  }

  /** The schedules of `ids` that exist, in that order, read in one transaction. */
  async #read(ids: string[]): Promise<StoredSchedule[]> {
    if (ids.length === 0) return [];
    const replies = await this.#redis.client
      .multi()
      .hmget(this.#redis.key('schedules'), ...ids)
      .hmget(this.#redis.key('schedule-next'), ...ids)
      .zmscore(this.#redis.key('schedule-order'), ...ids)
      .exec();
    const [values, next, created] = (replies ?? []).map(([error, reply]) => {
      if (error) throw error;
      return reply as (string | null)[];
    });
    const schedules: StoredSchedule[] = [];
    ids.forEach((id, i) => {
      const value = values?.[i];
      if (value === null || value === undefined) return;
      schedules.push({ id, value, nextRunAt: Number(next?.[i]), createdAt: Number(created?.[i]) });
    });
    return schedules;
  }
}
