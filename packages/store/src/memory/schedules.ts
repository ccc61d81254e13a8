import type { Lifecycle } from '../lifecycle.js';
import type { ScheduleStore, StoredSchedule } from '../types.js';

export class MemoryScheduleStore implements ScheduleStore {
  readonly #life: Lifecycle;
  readonly #schedules = new Map<string, StoredSchedule>();

  constructor(life: Lifecycle) {
    this.#life = life;
  }

  put(schedule: StoredSchedule): Promise<void> {
    return this.#life.run(() => {
      const createdAt = this.#schedules.get(schedule.id)?.createdAt ?? schedule.createdAt;
      this.#schedules.set(schedule.id, { ...schedule, createdAt });
    });
  }

  get(id: string): Promise<StoredSchedule | undefined> {
    return this.#life.run(() => {
      const schedule = this.#schedules.get(id);
      return schedule ? { ...schedule } : undefined;
    });
  }

  list(): Promise<StoredSchedule[]> {
    return this.#life.run(() =>
      [...this.#schedules.values()]
        .map((s) => ({ ...s }))
        .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    );
  }

  delete(id: string): Promise<boolean> {
    return this.#life.run(() => this.#schedules.delete(id));
  }

  claim(id: string, dueAt: number, nextRunAt: number): Promise<boolean> {
    return this.#life.run(() => {
      const schedule = this.#schedules.get(id);
      if (!schedule || schedule.nextRunAt !== dueAt) return false;
      schedule.nextRunAt = nextRunAt;
      return true;
    });
  }
}
