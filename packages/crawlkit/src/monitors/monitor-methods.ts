import type { CallOptions } from '../call-options.js';
import type { ErrorResponse } from '../v2/types.js';
import { callOf } from '../credits/charge.js';
import {
  createMonitor,
  deleteMonitor,
  getMonitor,
  listMonitors,
  runMonitor,
  updateMonitor,
  type MonitorCall,
  type MonitorResponse,
} from './monitor-api.js';
import { getMonitorCheck, listMonitorChecks } from './monitor-check-api.js';
import type { CreateMonitorInput, UpdateMonitorInput } from './monitor-request.js';
import type { MonitorCheckDetailView, MonitorCheckView, MonitorView } from './monitor-views.js';

/** What a monitor call needs of the engine's runtime. */
type MonitorRuntime = Pick<MonitorCall, 'ctx' | 'scheduler' | 'jobs'>;

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

export function monitorMethods(runtime: MonitorGuard): MonitorMethods {
  const guard = <T>(init: CallOptions, fn: (call: MonitorCall) => Promise<T>) =>
    runtime(init, ({ ctx, scheduler, jobs }) => fn({ ctx, scheduler, jobs, ...callOf(init), baseUrl: init.baseUrl }));
  return {
    create: (body, init = {}) => guard(init, (call) => createMonitor(call, body)),
    get: (id, init = {}) => guard(init, (call) => getMonitor(call, id)),
    list: (query = {}, init = {}) => guard(init, (call) => listMonitors(call, query)),
    update: (id, body, init = {}) => guard(init, (call) => updateMonitor(call, id, body)),
    delete: (id, init = {}) => guard(init, (call) => deleteMonitor(call, id)),
    run: (id, init = {}) => guard(init, (call) => runMonitor(call, id)),
    checks: (id, query = {}, init = {}) => guard(init, (call) => listMonitorChecks(call, id, query)),
    check: (id, checkId, query = {}, init = {}) => guard(init, (call) => getMonitorCheck(call, id, checkId, query)),
  };
}
