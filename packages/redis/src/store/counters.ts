import type { CounterBounds, CounterStore } from '@crawlkit/store';

import type { Lifecycle } from './lifecycle.js';
import type { ScriptRunner } from './scripts-runner.js';

/** Named counters: one hash per prefix (`<prefix>:counters`), each add one script, so every process agrees. */
export class RedisCounterStore implements CounterStore {
  readonly #life: Lifecycle;
  readonly #redis: ScriptRunner;

  constructor(life: Lifecycle, redis: ScriptRunner) {
    this.#life = life;
    this.#redis = redis;
  }

  get(name: string): Promise<number> {
    return this.#life.run(async () => Number((await this.#redis.client.hget(this.#redis.key('counters'), name)) ?? 0));
  }

  add(name: string, delta: number, bounds: CounterBounds = {}): Promise<number | undefined> {
    return this.#life.run(async () => {
      const value = await this.#redis.run('COUNTER_ADD', name, delta, bounds.max ?? '', bounds.min ?? '');
      return value === null || value === undefined ? undefined : Number(value);
    });
  }
}
