import type { CallOptions } from '../call-options.js';
import type { ErrorResponse } from '../v2/types.js';
import { callOf } from '../credits/charge.js';
import { monitorCalls } from '../lazy-features.js';
import type { LazyScheduler } from '../schedules/lazy-scheduler.js';
import type { MonitorCall, MonitorResponse } from './monitor-api.js';
import type { CreateMonitorInput, UpdateMonitorInput } from './monitor-request.js';
import type { MonitorCheckDetailView, MonitorCheckView, MonitorView } from './monitor-views.js';

/** What a monitor call needs of the engine's runtime: its scheduler is built by the first call that needs it. */
type MonitorRuntime = Pick<MonitorCall, 'ctx' | 'jobs'> & { scheduler: LazyScheduler };

/** Runs a monitor call on the engine's runtime; what it throws comes back in the v2 error shape. */
export type MonitorGuard = <T>(init: CallOptions, fn: (rt: MonitorRuntime) => Promise<T>) => Promise<T | ErrorResponse>;

/** Paging of a list: `limit` (at most 1000) entries after the first `offset`. */
export interface MonitorListQuery {
  limit?: number;
  offset?: number;
}

/**
 * Monitors (`/v2/monitor`, the shape of the 2026 Firecrawl clients): a schedule of scrapes and crawls whose every
 * firing is a check, with each page `same`, `new`, `changed`, `removed` or `error` and the diff of a changed one.
 */
export interface MonitorMethods {
  /** Stores a monitor; its checks fire in this engine with `runSchedules: true`, else in one that has it. */
  create(body: CreateMonitorInput, init?: CallOptions): Promise<MonitorResponse | ErrorResponse>;
  /** A monitor; `MONITOR_NOT_FOUND` for an unknown id. */
  get(id: string, init?: CallOptions): Promise<MonitorResponse | ErrorResponse>;
  /** The caller's monitors, oldest first. */
  list(query?: MonitorListQuery, init?: CallOptions): Promise<{ success: true; data: MonitorView[] } | ErrorResponse>;
  /** Replaces what the body gives (name, status, schedule, targets, webhook, retentionDays). */
  update(id: string, body: UpdateMonitorInput, init?: CallOptions): Promise<MonitorResponse | ErrorResponse>;
  /** Deletes a monitor: no further check (crawls already started go on). */
  delete(id: string, init?: CallOptions): Promise<{ success: true } | ErrorResponse>;
  /** A check now, out of the monitor's clock; answers it (`running` while its crawls run). */
  run(id: string, init?: CallOptions): Promise<{ success: true; data: MonitorCheckView } | ErrorResponse>;
  /** The monitor's checks, newest first (`status`: only those of this check status). */
  checks(
    id: string,
    query?: MonitorListQuery & { status?: string },
    init?: CallOptions,
  ): Promise<{ success: true; data: MonitorCheckView[] } | ErrorResponse>;
  /** A check with its pages: `skip`, `limit` (at most 1000, default 100) and a page `status` to keep. */
  check(
    id: string,
    checkId: string,
    query?: { skip?: number; limit?: number; status?: string },
    init?: CallOptions,
  ): Promise<{ success: true; data: MonitorCheckDetailView; next: string | null } | ErrorResponse>;
}

/** The methods of `ck.monitors`: each call loads the monitors' modules, at the first one (lazy-features.ts). */
export function monitorMethods(runtime: MonitorGuard): MonitorMethods {
  type Calls = Awaited<ReturnType<typeof monitorCalls>>;
  const guard = <T>(init: CallOptions, fn: (api: Calls, call: MonitorCall) => Promise<T>) =>
    runtime(init, async ({ ctx, scheduler, jobs }) => {
      const call = { ctx, scheduler: await scheduler.get(), jobs, ...callOf(init), baseUrl: init.baseUrl };
      return fn(await monitorCalls(), call);
    });
  return {
    create: (body, init = {}) => guard(init, (api, call) => api.createMonitor(call, body)),
    get: (id, init = {}) => guard(init, (api, call) => api.getMonitor(call, id)),
    list: (query = {}, init = {}) => guard(init, (api, call) => api.listMonitors(call, query)),
    update: (id, body, init = {}) => guard(init, (api, call) => api.updateMonitor(call, id, body)),
    delete: (id, init = {}) => guard(init, (api, call) => api.deleteMonitor(call, id)),
    run: (id, init = {}) => guard(init, (api, call) => api.runMonitor(call, id)),
    checks: (id, query = {}, init = {}) => guard(init, (api, call) => api.listMonitorChecks(call, id, query)),
    check: (id, checkId, query = {}, init = {}) =>
      guard(init, (api, call) => api.getMonitorCheck(call, id, checkId, query)),
  };
}
