/**
 * The schedule methods of the engine (crawlkit's own, issue 41): create, read, list and delete, in the v2 style
 * (`{ success: true, ... }` or the v2 error shape).
 */
import { checkUrlAgainstPolicy } from '@crawlkit/fetcher';
import type { ScheduleStore, StoredSchedule } from '@crawlkit/store';

import { scheduleCodec } from '../codec/records.js';
import type { EngineContext } from '../context.js';
import { CrawlkitError, isCrawlkitError, toErrorResponse } from '../errors.js';
import { hideJobSecrets, sealJobSecrets, sealWebhookSecret } from '../jobs/job-secrets.js';
import { newJobId } from '../uuid-v7.js';
import { parseBody } from '../v2/parse.js';
import type { ErrorResponse } from '../v2/types.js';
import { checkWebhookUrl } from '../webhooks/outbox.js';
import { readMonitor } from '../monitors/monitor-store.js';
import { firstFiring, nextFiring } from './schedule-clock.js';
import { shownNextRunAt } from './schedule-hold.js';
import {
  clockOf,
  scheduleRequestSchema,
  type ScheduleRequestInput,
  type ScheduleTarget,
  type ScheduleWebhook,
} from './schedule-request.js';
import { deleteRunRecords, lastRun, ownerOf, type ScheduleRun, type ScheduleValue } from './schedule-runs.js';
import { NEVER, type Scheduler } from './scheduler.js';

/** A schedule as the API shows it (header values `[redacted]`). */
export interface ScheduleView {
  id: string;
  name?: string;
  every?: string;
  cron?: string;
  /** The time zone `cron` is read in, when not UTC. */
  timezone?: string;
  targets: ScheduleTarget[];
  webhook?: { url: string; headers: Record<string, string>; metadata: Record<string, string>; events: string[] };
  /** ISO 8601. */
  createdAt: string;
  /**
   * `paused` from `pause` until `resume` (a monitor's: its own status): it does not fire (`run` still runs it now).
   */
  status: 'active' | 'paused';
  /** The next firing (ISO 8601); null while paused, or for a cron expression that never fires again. */
  nextRunAt: string | null;
  /**
   * The last firing: when it was due and started, the crawl of each target (null if refused; the one still running
   * for a target `skipped`) and why.
   */
  lastRun: { dueAt: string; startedAt: string; jobIds: (string | null)[]; skipped: number[]; errors: string[] } | null;
}

export interface ScheduleResponse {
  success: true;
  data: ScheduleView;
  /** Set when the engine that stored the schedule does not run schedules. */
  warning?: string;
}

export interface ScheduleListResponse {
  success: true;
  data: ScheduleView[];
  /** Set when a stored schedule cannot be read (damaged, or written by a newer crawlkit): it is named, not listed. */
  warning?: string;
}

/** Who calls: the engine's context, its scheduler when it runs schedules, the caller's tenant and credit limit. */
export interface ScheduleCall {
  ctx: EngineContext;
  scheduler: Scheduler;
  tenant?: string | undefined;
  /** Recorded with what it creates: the crawls it fires later run under it (`CallOptions.creditLimit`). */
  creditLimit?: number | undefined;
}

export const notFound = (): ErrorResponse => ({
  success: false,
  code: 'SCHEDULE_NOT_FOUND',
  error: 'Schedule not found',
});

export function scheduleStore(ctx: EngineContext): ScheduleStore {
  const schedules = ctx.store.schedules;
  if (!schedules) {
    throw new CrawlkitError(
      'SCHEDULES_UNSUPPORTED',
      `The store given to crawlkit (${ctx.store.kind}) keeps no schedules.`,
    );
  }
  return schedules;
}

/** `POST /v2/schedule`: validates and stores a schedule; an engine that runs schedules fires it from then on. */
export async function createSchedule(
  call: ScheduleCall,
  body: ScheduleRequestInput,
): Promise<ScheduleResponse | ErrorResponse> {
  const parsed = parseBody(scheduleRequestSchema, body);
  if (!parsed.ok) return parsed.error;
  const request = parsed.value;
  let targets: ScheduleTarget[];
  try {
    targets = sealedTargets(call, request.targets);
  } catch (error) {
    return toErrorResponse(error);
  }
  const schedules = scheduleStore(call.ctx);
  const value: ScheduleValue = {
    ...ownerOf(call),
    ...(request.name !== undefined ? { name: request.name } : {}),
    ...(request.every !== undefined ? { every: request.every } : { cron: request.cron! }),
    ...(request.timezone !== undefined ? { timezone: request.timezone } : {}),
    targets,
    ...(request.webhook ? sealedWebhook(call, request.webhook) : {}),
  };
  const now = Date.now();
  const stored: StoredSchedule = {
    // Sorts after the ids made before it, so that schedules made in one millisecond list in the order made.
    id: newJobId(now),
    value: scheduleCodec.encode(value),
    nextRunAt: firstFiring(clockOf(request), now) ?? NEVER,
    createdAt: now,
  };
  await schedules.put(stored);
  call.scheduler.wake();
  const response: ScheduleResponse = { success: true, data: await viewOf(call.ctx, stored) };
  if (!call.scheduler.running) {
    response.warning =
      'This engine does not run schedules: the schedule is stored and fires in an engine that does ' +
      '(`runSchedules: true`, `crawlkit serve`, `crawlkit crawl --every`) on the same store.';
  }
  return response;
}

/** `GET /v2/schedule/:id`. */
export async function getSchedule(call: ScheduleCall, id: string): Promise<ScheduleResponse | ErrorResponse> {
  const stored = await scheduleStore(call.ctx).get(String(id));
  if (!stored || !visible(stored, call.tenant)) return notFound();
  return { success: true, data: await viewOf(call.ctx, stored) };
}

/** `GET /v2/schedule`: the caller's schedules, oldest first. */
export async function listSchedules(call: ScheduleCall): Promise<ScheduleListResponse | ErrorResponse> {
  const all = await scheduleStore(call.ctx).list();
  const unreadable: string[] = [];
  // One schedule that cannot be read leaves the others listed, as the scheduler leaves them firing.
  const views = await Promise.all(
    all
      .filter((s) => visible(s, call.tenant))
      .map((s) =>
        viewOf(call.ctx, s).catch((error: unknown) => {
          if (!isCrawlkitError(error) || error.code !== 'STORE_RECORD_INVALID') throw error;
          unreadable.push(`${s.id} (${error.message})`);
          return undefined;
        }),
      ),
  );
  const data = views.filter((view) => view !== undefined);
  if (unreadable.length === 0) return { success: true, data };
  const warning =
    `${unreadable.length} schedule(s) cannot be read and are not listed: ${unreadable.join('; ')}. ` +
    'Upgrade crawlkit if a newer one wrote them; otherwise delete them and create them again.';
  return { success: true, data, warning };
}

/** `POST /v2/schedule/:id/run`: runs the schedule now, out of its clock; answers the run's crawls. */
export async function runSchedule(
  call: ScheduleCall,
  id: string,
): Promise<{ success: true; data: NonNullable<ScheduleView['lastRun']> } | ErrorResponse> {
  const stored = await scheduleStore(call.ctx).get(String(id));
  if (!stored || !visible(stored, call.tenant)) return notFound();
  const run = await call.scheduler.runNow(stored.id);
  return { success: true, data: runView(run) };
}

/**
 * `POST /v2/schedule/:id/pause`: no firing until `resume`; its runs, and each target's last crawl that the next run
 * compares with, stay (a delete takes them). Pausing a paused schedule changes nothing.
 */
export function pauseSchedule(call: ScheduleCall, id: string): Promise<ScheduleResponse | ErrorResponse> {
  return setStatus(call, id, 'paused');
}

/**
 * `POST /v2/schedule/:id/resume`: fires again from its first firing after now (an interval keeps its phase); the
 * firings it missed while paused are not run. Resuming an active schedule changes nothing.
 */
export function resumeSchedule(call: ScheduleCall, id: string): Promise<ScheduleResponse | ErrorResponse> {
  return setStatus(call, id, 'active');
}

async function setStatus(
  call: ScheduleCall,
  id: string,
  status: 'paused' | 'active',
): Promise<ScheduleResponse | ErrorResponse> {
  const schedules = scheduleStore(call.ctx);
  const stored = await schedules.get(String(id));
  if (!stored || !visible(stored, call.tenant)) return notFound();
  const monitor = await monitorOf(call, stored.id, status);
  if (monitor) return monitor;
  const { paused, ...value } = scheduleCodec.decode(stored.value);
  if ((paused !== undefined) === (status === 'paused')) {
    return { success: true, data: await viewOf(call.ctx, stored) };
  }
  const now = Date.now();
  // Paused, the store's next firing is never (no process fires it) and the record keeps the one it had.
  const changed: StoredSchedule = paused
    ? { ...stored, value: scheduleCodec.encode(value), nextRunAt: resumedAt(value, paused.nextRunAt, now) }
    : {
        ...stored,
        value: scheduleCodec.encode({ ...value, paused: { at: now, nextRunAt: stored.nextRunAt } }),
        nextRunAt: NEVER,
      };
  await schedules.put(changed);
  call.scheduler.wake();
  return { success: true, data: await viewOf(call.ctx, changed) };
}

/** The next firing of a schedule resumed at `now` that was due at `due` when paused: that one if still to come. */
function resumedAt(value: ScheduleValue, due: number, now: number): number {
  if (due > now || due >= NEVER) return due;
  return nextFiring(clockOf(value), due, now) ?? NEVER;
}

/** The refusal to pause or resume a monitor's schedule here: the monitor keeps its own status. */
async function monitorOf(
  call: ScheduleCall,
  id: string,
  status: 'paused' | 'active',
): Promise<ErrorResponse | undefined> {
  const monitor = await readMonitor(call.ctx.store, id);
  if (!monitor) return undefined;
  return {
    success: false,
    code: 'BAD_REQUEST',
    error:
      `Schedule ${id} runs the monitor "${monitor.name}", which keeps its own status: set it on the monitor ` +
      `(PATCH /v2/monitor/${id} with {"status":"${status}"}, or monitors.update).`,
  };
}

/** `DELETE /v2/schedule/:id`: no further firing; crawls already started go on. */
export async function deleteSchedule(call: ScheduleCall, id: string): Promise<{ success: true } | ErrorResponse> {
  const schedules = scheduleStore(call.ctx);
  const stored = await schedules.get(String(id));
  if (!stored || !visible(stored, call.tenant) || !(await schedules.delete(stored.id))) return notFound();
  await deleteRunRecords(call.ctx.store, stored.id, scheduleCodec.decode(stored.value));
  call.scheduler.wake();
  return { success: true };
}

export function visible(stored: StoredSchedule, tenant: string | undefined): boolean {
  if (tenant === undefined) return true;
  const owner = scheduleCodec.decode(stored.value).tenant;
  return owner === undefined || owner === tenant;
}

const iso = (ms: number) => new Date(ms).toISOString();

function runView(run: ScheduleRun): NonNullable<ScheduleView['lastRun']> {
  const { jobIds, skipped, errors } = run;
  return { dueAt: iso(run.dueAt), startedAt: iso(run.startedAt), jobIds, skipped, errors };
}

export async function viewOf(ctx: EngineContext, stored: StoredSchedule): Promise<ScheduleView> {
  const value = scheduleCodec.decode(stored.value);
  const run = await lastRun(ctx.store, stored.id);
  // A monitor keeps its status in its own record (its schedule's value is never `paused`): told as its API tells it.
  const monitor = await readMonitor(ctx.store, stored.id);
  return {
    id: stored.id,
    ...(value.name !== undefined ? { name: value.name } : {}),
    ...(value.every !== undefined ? { every: value.every } : {}),
    ...(value.cron !== undefined ? { cron: value.cron } : {}),
    ...(value.timezone !== undefined ? { timezone: value.timezone } : {}),
    targets: value.targets.map((target) => hideJobSecrets({ request: target }).request),
    ...(value.webhook
      ? { webhook: hideJobSecrets({ request: {}, webhook: value.webhook }, ctx.secrets(ctx.store)).webhook }
      : {}),
    createdAt: iso(stored.createdAt),
    status: monitor?.status ?? (value.paused ? 'paused' : 'active'),
    nextRunAt: shownNextRunAt(stored.nextRunAt, NEVER),
    lastRun: run ? runView(run) : null,
  };
}

/** Targets checked against the engine's URL policy, their header values sealed for the store (a monitor's). */
export function sealedTargets(call: ScheduleCall, targets: ScheduleTarget[]): ScheduleTarget[] {
  for (const target of targets) checkUrlAgainstPolicy(target.url, call.ctx.fetcher.urlPolicy);
  const box = call.ctx.secrets(call.ctx.store);
  return targets.map((target) => sealJobSecrets({ request: target }, box).request);
}

/**
 * A schedule's webhook checked against the engine's URL policy, its header values sealed for the store, with the
 * engine's webhook secret sealed beside it (`webhookSecret`), so that whichever process runs the schedule signs its
 * events as this engine would. Spread into the schedule's value.
 */
export function sealedWebhook(
  call: ScheduleCall,
  webhook: ScheduleWebhook,
): { webhook: ScheduleWebhook; webhookSecret?: string } {
  checkWebhookUrl(webhook.url, call.ctx.fetcher.urlPolicy);
  const box = call.ctx.secrets(call.ctx.store);
  const webhookSecret = sealWebhookSecret(call.ctx.options.webhooks.secret, box);
  return {
    webhook: sealJobSecrets({ request: {}, webhook }, box).webhook,
    ...(webhookSecret ? { webhookSecret } : {}),
  };
}
