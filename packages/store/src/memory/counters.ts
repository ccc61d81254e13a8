import { withinBounds } from '../counters.js';
import type { Lifecycle } from '../lifecycle.js';
import type { CounterBounds, CounterStore } from '../types.js';

export class MemoryCounterStore implements CounterStore {
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
