import { schedulerModule } from '../lazy-features.js';
import type { EngineSchedulerSettings } from './engine-scheduler.js';
import type { Scheduler } from './scheduler.js';

/**
 * The engine's scheduler, built (and its modules, the monitors' checks with it, loaded) by the first call that needs
 * it: a schedule or monitor call, or the runtime's start with `runSchedules`. A plain scrape never loads them.
 */
export class LazyScheduler {
  readonly #settings: EngineSchedulerSettings;
  #built: Promise<Scheduler> | undefined;
  #closing: Promise<void> | undefined;

  constructor(settings: EngineSchedulerSettings) {
    this.#settings = settings;
  }

  /** The scheduler; one built after `close()` (for a call that was under way) is closed already: it fires nothing. */
  get(): Promise<Scheduler> {
    if (this.#built) return this.#built;
    const built = schedulerModule().then(async ({ engineScheduler }) => {
      const scheduler = engineScheduler(this.#settings);
      if (this.#closing) await scheduler.close();
      return scheduler;
    });
    this.#built = built;
    // A failed load is not kept: the next call tries again.
    built.catch(() => {
      if (this.#built === built) this.#built = undefined;
    });
    return built;
  }

  /** Stops firing and waits for the look in progress (nothing to do when it was never built). */
  close(): Promise<void> {
    return (this.#closing ??= (async () => {
      const scheduler = await this.#built?.catch(() => undefined);
      await scheduler?.close();
    })());
  }
}
