/** Schedules: recurring crawls and scrapes, kept so that they outlive the process that created them. */

/** One schedule as the store keeps it. */
export interface StoredSchedule {
  id: string;
  /** Serialised schedule (its clock, targets, webhook, ...), opaque to the store. */
  value: string;
  /** When the next firing is due (epoch ms). */
  nextRunAt: number;
  createdAt: number;
}

export interface ScheduleStore {
  /** Adds a schedule, or replaces the one with its id (its value and `nextRunAt`; `createdAt` is kept). */
  put(schedule: StoredSchedule): Promise<void>;
  get(id: string): Promise<StoredSchedule | undefined>;
  /** Every schedule, oldest first (by `createdAt`, then id). */
  list(): Promise<StoredSchedule[]>;
  /** Deletes a schedule; false when there was none. */
  delete(id: string): Promise<boolean>;
  /**
   * Takes the firing due at `dueAt`: when the schedule's `nextRunAt` is still `dueAt`, sets it to `nextRunAt` and
   * resolves true, atomically across processes; otherwise (another process took it, the schedule was changed or
   * deleted) changes nothing and resolves false. Whoever gets true runs the firing: exactly one process does.
   */
  claim(id: string, dueAt: number, nextRunAt: number): Promise<boolean>;
}
