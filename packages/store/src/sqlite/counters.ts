import { withinBounds } from '../counters.js';
import type { CounterBounds, CounterStore } from '../types.js';
import type { SqliteDatabase } from './database.js';

/** Named counters (`counters`), each add in one `BEGIN IMMEDIATE` transaction, so processes sharing the file agree. */
export class SqliteCounterStore implements CounterStore {
  readonly #db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  get(name: string): Promise<number> {
    return this.#db.use(
      () => this.#db.get<{ value: number }>('SELECT value FROM counters WHERE name = ?', name)?.value ?? 0,
    );
  }

  add(name: string, delta: number, bounds?: CounterBounds): Promise<number | undefined> {
    return this.#db.useWrite(() => {
      const old = this.#db.get<{ value: number }>('SELECT value FROM counters WHERE name = ?', name)?.value ?? 0;
      const value = old + delta;
      if (!withinBounds(value, bounds)) return undefined;
      this.#db.run(
        'INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
        name,
        value,
      );
      return value;
    });
  }
}
