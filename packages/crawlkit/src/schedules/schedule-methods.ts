import type { CallOptions } from '../call-options.js';
import type { ErrorResponse } from '../v2/types.js';
import { scheduleCalls } from '../lazy-features.js';
import type { ScheduleCall, ScheduleListResponse, ScheduleResponse, ScheduleView } from './schedule-api.js';
import type { ScheduleRequestInput, UpdateScheduleInput } from './schedule-request.js';

/** Runs a schedule call on the engine's runtime; what it throws comes back in the v2 error shape. */
export type ScheduleGuard = <T>(
  init: CallOptions,
  fn: (call: ScheduleCall) => Promise<T>,
) => Promise<T | ErrorResponse>;

/**
 * Recurring crawls and scrapes kept in the store (crawlkit's own; `POST /v2/schedule` and the routes below it). Each
 * firing runs every target as a crawl job with a change feed of its own, and POSTs each change to the webhook.
 */
export interface ScheduleMethods {
  /** Stores a schedule; it fires in this engine with `runSchedules: true`, else in one that has it on the store. */
  create(body: ScheduleRequestInput, init?: CallOptions): Promise<ScheduleResponse | ErrorResponse>;
  /** A schedule with its next firing and last run; `SCHEDULE_NOT_FOUND` for an unknown id. */
  get(id: string, init?: CallOptions): Promise<ScheduleResponse | ErrorResponse>;
  /** Every schedule (of the caller's tenant), oldest first. */
  list(init?: CallOptions): Promise<ScheduleListResponse | ErrorResponse>;
  /**
   * Runs a schedule now, out of its clock (its next firing stays); answers the run: the crawl of each target, or why
   * a target was skipped (its previous crawl still running).
   */
  run(
    id: string,
    init?: CallOptions,
  ): Promise<{ success: true; data: NonNullable<ScheduleView['lastRun']> } | ErrorResponse>;
  /**
   * Pauses a schedule: it fires no more until `resume` (`run` still runs it now); its runs and its targets' last
   * crawls, which its next run compares with, are kept. Answers the schedule (`status: 'paused'`).
   */
  pause(id: string, init?: CallOptions): Promise<ScheduleResponse | ErrorResponse>;
  /**
   * Changes a schedule in place (its id, runs and status stay): each field of `body` replaces the schedule's, `null`
   * removes its `name` or `webhook`. A new clock (`every`, `cron`, `timezone`) fires from its first firing after now;
   * a target replaced or taken out starts its change feed anew. A monitor's schedule is changed on the monitor.
   */
  update(id: string, body: UpdateScheduleInput, init?: CallOptions): Promise<ScheduleResponse | ErrorResponse>;
  /** Resumes a paused schedule from its first firing after now; the firings missed while paused are not run. */
  resume(id: string, init?: CallOptions): Promise<ScheduleResponse | ErrorResponse>;
  /** Deletes a schedule: it fires no more (its crawls already started go on). */
  delete(id: string, init?: CallOptions): Promise<{ success: true } | ErrorResponse>;
}

/** The methods of `ck.schedules`: each call loads the schedules' modules, at the first one (lazy-features.ts). */
export function scheduleMethods(guard: ScheduleGuard): ScheduleMethods {
  type Calls = Awaited<ReturnType<typeof scheduleCalls>>;
  const call = <T>(init: CallOptions, fn: (calls: Calls, call: ScheduleCall) => Promise<T>) =>
    guard(init, async (c) => fn(await scheduleCalls(), c));
  return {
    create: (body, init = {}) => call(init, (api, c) => api.createSchedule(c, body)),
    get: (id, init = {}) => call(init, (api, c) => api.getSchedule(c, id)),
    list: (init = {}) => call(init, (api, c) => api.listSchedules(c)),
    run: (id, init = {}) => call(init, (api, c) => api.runSchedule(c, id)),
    update: (id, body, init = {}) => call(init, (api, c) => api.updateSchedule(c, id, body)),
    pause: (id, init = {}) => call(init, (api, c) => api.pauseSchedule(c, id)),
    resume: (id, init = {}) => call(init, (api, c) => api.resumeSchedule(c, id)),
    delete: (id, init = {}) => call(init, (api, c) => api.deleteSchedule(c, id)),
  };
}
