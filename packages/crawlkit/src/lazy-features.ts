/**
 * The one home of the loaders of the features a plain scrape never uses: schedules, monitors, search, replay and the
 * distributed backend's parts load with the first call that uses them, not with `import 'crawlkit'`
 * (docs/decisions.md, "Lazy loading"). Each loader is typed by the modules it loads, shared by concurrent callers,
 * and forgets a failed load (the next call tries again).
 */
import { lazyModule } from '@crawlkit/options/lazy-module';

/** `ck.schedules`' calls. */
export const scheduleCalls = lazyModule(async () => {
  const [api, update] = await Promise.all([
    import('./schedules/schedule-api.js'),
    import('./schedules/schedule-update.js'),
  ]);
  return { ...api, ...update };
});

/** `ck.monitors`' calls. */
export const monitorCalls = lazyModule(async () => {
  const [api, checks] = await Promise.all([
    import('./monitors/monitor-api.js'),
    import('./monitors/monitor-check-api.js'),
  ]);
  return { ...api, ...checks };
});

/** The engine's scheduler, with the monitors' checks its firings record: a schedule or monitor call, `runSchedules`. */
export const schedulerModule = lazyModule(() => import('./schedules/engine-scheduler.js'));

/** `ck.search` and the search targets of monitors. */
export const searchModule = lazyModule(() => import('./search/run-search.js'));

/** The hybrid ranking of local results, for an engine given an embedding model. */
export const hybridModule = lazyModule(() => import('./search/hybrid.js'));

/** The distributed backend's side of the engine (its store, leadership, the shared queue): with `backend` only. */
export const distributedModule = lazyModule(() => import('./worker/distributed.js'));

/** The replay engine, for an engine that serves pages from WARC recordings (`engine: 'replay'`). */
export const replayModule = lazyModule(() => import('@crawlkit/fetcher/warc'));

/** A worker of the distributed backend: `startWorker()`. */
export const taskWorkerModule = lazyModule(() => import('./worker/task-worker.js'));
