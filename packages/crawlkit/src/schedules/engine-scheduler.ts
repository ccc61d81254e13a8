/**
 * The engine's scheduler as the runtime builds it: its firings record and close the monitors' checks, whose search
 * targets run on the engine's search. Loaded by `LazyScheduler` (lazy-features.ts), with what it imports.
 */
import type { Delivery, Store } from '@crawlkit/store';

import type { EngineContext } from '../context.js';
import type { EventBus } from '../event-bus.js';
import type { JobManager } from '../jobs/job-manager.js';
import { recordCheck, settleCheck } from '../monitors/monitor-checks.js';
import { checkSearch } from '../monitors/monitor-search.js';
import type { Runtime } from '../runtime.js';
import type { SearchSetup } from '../search/setup.js';
import { Scheduler } from './scheduler.js';

/** What the engine's scheduler runs on. */
export interface EngineSchedulerSettings {
  ctx: EngineContext;
  jobs: JobManager;
  bus: EventBus;
  /** A webhook event is in a job's outbox: this process's dispatcher delivers it. */
  queued: (store: Store, delivery: Delivery) => void;
  /** The runtime, for the searches of monitors' checks (read when a check runs, once the runtime is built). */
  runtime: () => Runtime;
  /** The engine's search (its web provider). @default the local index only */
  search?: SearchSetup | undefined;
}

export function engineScheduler(settings: EngineSchedulerSettings): Scheduler {
  const { ctx, jobs, bus, queued } = settings;
  // What a monitor's check is recorded and closed with: its events go to this process's dispatcher at once.
  const checks = {
    store: ctx.store,
    llm: ctx.llm,
    options: ctx.options,
    queued,
    search: checkSearch(settings.runtime, settings.search ?? { provider: undefined }),
  };
  return new Scheduler({
    ctx,
    jobs,
    bus,
    queued,
    started: (id, run, trigger) => recordCheck(checks, jobs, id, run, trigger),
    settled: (id, run, closing) => settleCheck(checks, jobs, id, run, closing),
  });
}
