import type { ScheduleStore, StoredSchedule } from '../types.js';
import type { SqliteDatabase } from './database.js';

interface ScheduleRow {
  id: string;
  value: string;
  next_run_at: number;
  created_at: number;
}

function scheduleOf(row: ScheduleRow): StoredSchedule {
  return { id: row.id, value: row.value, nextRunAt: row.next_run_at, createdAt: row.created_at };
}

/** Schedules (`schedules`); a claim is one conditional `UPDATE`, so processes sharing the file take a firing once. */
export class SqliteScheduleStore implements ScheduleStore {
  readonly #db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  put(schedule: StoredSchedule): Promise<void> {
    return this.#db.useWrite(() => {
      this.#db.run(
        `INSERT INTO schedules (id, value, next_run_at, created_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET value = excluded.value, next_run_at = excluded.next_run_at`,
        schedule.id,
        schedule.value,
        schedule.nextRunAt,
        schedule.createdAt,
      );
    });
  }

  get(id: string): Promise<StoredSchedule | undefined> {
    return this.#db.use(() => {
      const row = this.#db.get<ScheduleRow>('SELECT * FROM schedules WHERE id = ?', id);
      return row ? scheduleOf(row) : undefined;
    });
  }

  list(): Promise<StoredSchedule[]> {
    return this.#db.use(() =>
      this.#db.all<ScheduleRow>('SELECT * FROM schedules ORDER BY created_at, id').map(scheduleOf),
    );
  }

  delete(id: string): Promise<boolean> {
    return this.#db.useWrite(() => this.#db.run('DELETE FROM schedules WHERE id = ?', id) > 0);
  }

  claim(id: string, dueAt: number, nextRunAt: number): Promise<boolean> {
    return this.#db.useWrite(
      () =>
        this.#db.run('UPDATE schedules SET next_run_at = ? WHERE id = ? AND next_run_at = ?', nextRunAt, id, dueAt) > 0,
    );
  }
}
