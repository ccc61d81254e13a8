/**
 * The monitor methods of the engine (`/v2/monitor`, the 2026 clients' monitors): a monitor is a schedule of the same
 * id (its clock, targets and webhook, fired by the engines that run schedules) plus what the clients read of it (its
 * name, status, the targets as they gave them), and each firing is a check whose pages are its crawls' change feeds.
 */

import type { StoredSchedule } from '@crawlkit/store';
import { z } from 'zod';

import { scheduleCodec } from '../codec/records.js';
import type { JobManager } from '../jobs/job-manager.js';
import { firstFiring } from '../schedules/schedule-clock.js';
import { scheduleStore, sealedTargets, sealedWebhook, visible, type ScheduleCall } from '../schedules/schedule-api.js';
import { clockOf } from '../schedules/schedule-request.js';
import { deleteRunRecords, ownerOf, type ScheduleValue } from '../schedules/schedule-runs.js';
import { NEVER } from '../schedules/scheduler.js';
import { newJobId } from '../uuid-v7.js';
import { parseBody } from '../v2/parse.js';
import type { ErrorResponse } from '../v2/types.js';
import { checkIdOf, checkState } from './monitor-checks.js';
import { CHECK_COMPLETED } from './monitor-events.js';
import { judgeProblem } from './monitor-judge.js';
import {
  createMonitorSchema,
  updateMonitorSchema,
  type CreateMonitorInput,
  type MonitorWebhookEvent,
  type MonitorWebhookInput,
  type UpdateMonitorInput,
} from './monitor-request.js';
import {
  deleteHistories,
  deleteMonitorRecords,
  listChecks,
  monitorCounters,
  readCheck,
  readMonitor,
  writeMonitor,
  type MonitorValue,
} from './monitor-store.js';
import { forgetSearches } from './monitor-search.js';
import { searchWarning } from './monitor-search-target.js';
import { historyTags, scheduleTargetsOf, targetProblem, type ScheduleTargets } from './monitor-targets.js';
import { checkView, monitorView, type LatestCheck, type MonitorCheckView, type MonitorView } from './monitor-views.js';

/** Who calls: the schedule call, with the engine's jobs (a check reads its crawls). */
export interface MonitorCall extends ScheduleCall {
  jobs: JobManager;
  /** Base of a check's `next` address (an HTTP server's own). @default 'crawlkit://' */
  baseUrl?: string | undefined;
}

export interface MonitorResponse {
  success: true;
  data: MonitorView;
  /** Set when the engine that stored the monitor does not run schedules. */
  warning?: string;
}

const DEFAULT_RETENTION_DAYS = 30;

export const monitorNotFound = (): ErrorResponse => ({
  success: false,
  code: 'MONITOR_NOT_FOUND',
  error: 'Monitor not found',
});

const pagingSchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

/** `POST /v2/monitor`. */
export async function createMonitor(
  call: MonitorCall,
  body: CreateMonitorInput,
): Promise<MonitorResponse | ErrorResponse> {
  const parsed = parseBody(createMonitorSchema, body);
  if (!parsed.ok) return parsed.error;
  const request = parsed.value;
  monitorCounters(call.ctx.store);
  // Sorts after the ids made before it: monitors made in one millisecond list in the order made.
  const id = newJobId();
  const targets = scheduleTargetsOf(id, request.targets);
  const webhook = request.webhook ? scheduleWebhookOf(request.webhook) : undefined;
  const problem = targetProblem(targets, validated(webhook), request.targets);
  if (problem) return problem;
  const judge = { goal: request.goal ?? undefined, judgeEnabled: request.judgeEnabled };
  const judging = judgeProblem(call.ctx.llm, judge, request.judgeEnabled);
  if ('error' in judging) return judging.error;
  const now = Date.now();
  const monitor: MonitorValue = {
    ...ownerOf(call),
    name: request.name,
    status: 'active',
    schedule: request.schedule,
    meta: targets.meta,
    slots: targets.slots,
    ...(targets.historyPerTarget ? { historyPerTarget: true } : {}),
    retentionDays: request.retentionDays ?? DEFAULT_RETENTION_DAYS,
    ...(judge.goal !== undefined ? { goal: judge.goal } : {}),
    ...(judge.judgeEnabled !== undefined ? { judgeEnabled: judge.judgeEnabled } : {}),
    ...(checkCompletedOf(request.webhook) ? { checkCompleted: true } : {}),
    createdAt: now,
    updatedAt: now,
  };
  const value: ScheduleValue = {
    ...ownerOf(call),
    name: `monitor: ${request.name}`,
    cron: request.schedule.cron,
    timezone: request.schedule.timezone,
    targets: sealedTargets(call, targets.targets),
    ...(webhook ? sealedWebhook(call, webhook) : {}),
  };
  const stored: StoredSchedule = {
    id,
    value: scheduleCodec.encode(value),
    nextRunAt: nextOf(value, now),
    createdAt: now,
  };
  // The monitor first: a schedule whose monitor is not yet written would fire checks nobody records.
  await writeMonitor(call.ctx.store, id, monitor);
  await scheduleStore(call.ctx).put(stored);
  call.scheduler.wake();
  const response: MonitorResponse = { success: true, data: monitorView(stored, monitor, secretsOf(call)) };
  const warnings = [judging.warning, searchWarning(hasProvider(call), request.targets)];
  if (!call.scheduler.running) {
    warnings.unshift(
      'This engine does not run schedules: the monitor is stored and its checks fire in an engine that does ' +
        '(`runSchedules: true`, `crawlkit serve`) on the same store; `POST /v2/monitor/:id/run` runs one here.',
    );
  }
  const warning = warnings.filter(Boolean).join(' ');
  if (warning) response.warning = warning;
  return response;
}

/** `GET /v2/monitor/:id`. */
export async function getMonitor(call: MonitorCall, id: string): Promise<MonitorResponse | ErrorResponse> {
  const found = await findMonitor(call, id);
  if (!found) return monitorNotFound();
  return {
    success: true,
    data: monitorView(found.stored, found.monitor, secretsOf(call), await latestCheck(call, found)),
  };
}

/** `GET /v2/monitor?limit=&offset=`: the caller's monitors, oldest first. */
export async function listMonitors(
  call: MonitorCall,
  query: { limit?: unknown; offset?: unknown } = {},
): Promise<{ success: true; data: MonitorView[] } | ErrorResponse> {
  const paging = parseBody(pagingSchema, query);
  if (!paging.ok) return paging.error;
  const { limit, offset } = paging.value;
  const data: MonitorView[] = [];
  let seen = 0;
  for (const stored of await scheduleStore(call.ctx).list()) {
    if (data.length >= limit) break;
    const monitor = visible(stored, call.tenant) ? await readMonitor(call.ctx.store, stored.id) : undefined;
    if (!monitor || seen++ < offset) continue;
    data.push(monitorView(stored, monitor, secretsOf(call), await latestCheck(call, { stored, monitor })));
  }
  return { success: true, data };
}

/** `PATCH /v2/monitor/:id`: what the body gives replaces what the monitor had; the rest stays. */
export async function updateMonitor(
  call: MonitorCall,
  id: string,
  body: UpdateMonitorInput,
): Promise<MonitorResponse | ErrorResponse> {
  const parsed = parseBody(updateMonitorSchema, body);
  if (!parsed.ok) return parsed.error;
  const request = parsed.value;
  const found = await findMonitor(call, id);
  if (!found) return monitorNotFound();
  const { stored, monitor } = found;
  const value = scheduleCodec.decode(stored.value);
  let targets: ScheduleTargets = { targets: value.targets, meta: monitor.meta, slots: monitor.slots };
  const webhook = request.webhook ? scheduleWebhookOf(request.webhook) : undefined;
  if (request.targets) {
    targets = scheduleTargetsOf(id, request.targets, monitor.historyPerTarget === true);
    const problem = targetProblem(targets, validated(webhook), request.targets);
    if (problem) return problem;
    targets.targets = sealedTargets(call, targets.targets);
  } else if (webhook) {
    const probe = { targets: [{ type: 'scrape' as const, url: 'https://example.com/' }], meta: [], slots: [0] };
    const problem = targetProblem(probe, validated(webhook), []);
    if (problem) return problem;
  }
  const judge = {
    goal: request.goal === undefined ? monitor.goal : (request.goal ?? undefined),
    judgeEnabled: request.judgeEnabled ?? monitor.judgeEnabled,
  };
  const judging = judgeProblem(call.ctx.llm, judge, request.judgeEnabled);
  if ('error' in judging) return judging.error;
  const warning = [judging.warning, searchWarning(hasProvider(call), request.targets ?? [])].filter(Boolean).join(' ');
  const now = Date.now();
  const { goal: _goal, judgeEnabled: _judge, checkCompleted, ...rest } = monitor;
  const completedEvent = request.webhook === undefined ? checkCompleted : checkCompletedOf(request.webhook);
  const next: MonitorValue = {
    ...rest,
    ...(request.name !== undefined ? { name: request.name } : {}),
    ...(request.status !== undefined ? { status: request.status } : {}),
    ...(request.schedule !== undefined ? { schedule: request.schedule } : {}),
    ...(request.retentionDays !== undefined ? { retentionDays: request.retentionDays } : {}),
    ...(judge.goal !== undefined ? { goal: judge.goal } : {}),
    ...(judge.judgeEnabled !== undefined ? { judgeEnabled: judge.judgeEnabled } : {}),
    ...(completedEvent ? { checkCompleted: true } : {}),
    meta: targets.meta,
    slots: targets.slots,
    updatedAt: Math.max(now, monitor.updatedAt + 1),
  };
  // A webhook kept keeps the secret sealed with it; a new one is sealed with this engine's.
  const { webhook: oldWebhook, webhookSecret: oldSecret, ...kept } = value;
  const nextValue: ScheduleValue = {
    ...kept,
    name: `monitor: ${next.name}`,
    cron: next.schedule.cron,
    timezone: next.schedule.timezone,
    targets: targets.targets,
    ...(webhook
      ? sealedWebhook(call, webhook)
      : request.webhook === null || !oldWebhook
        ? {}
        : { webhook: oldWebhook, ...(oldSecret !== undefined ? { webhookSecret: oldSecret } : {}) }),
  };
  const clockChanged = request.schedule !== undefined || (request.status === 'active' && monitor.status === 'paused');
  const nextRunAt = next.status === 'paused' ? NEVER : clockChanged ? nextOf(nextValue, now) : stored.nextRunAt;
  const updated: StoredSchedule = { ...stored, value: scheduleCodec.encode(nextValue), nextRunAt };
  await writeMonitor(call.ctx.store, id, next);
  await scheduleStore(call.ctx).put(updated);
  call.scheduler.wake();
  // A target taken out takes its pages' history with it.
  const tracked = new Set(historyTags(id, next));
  await deleteHistories(
    call.ctx.store,
    historyTags(id, monitor).filter((tag) => !tracked.has(tag)),
  );
  return {
    success: true,
    data: monitorView(updated, next, secretsOf(call), await latestCheck(call, { stored: updated, monitor: next })),
    ...(warning ? { warning } : {}),
  };
}

/**
 * `DELETE /v2/monitor/:id`: no further check; its checks, their pages, its pages' change-tracking snapshots, its search
 * targets' last results and its schedule's runs leave the store. Crawls already started go on.
 */
export async function deleteMonitor(call: MonitorCall, id: string): Promise<{ success: true } | ErrorResponse> {
  const found = await findMonitor(call, id);
  if (!found || !(await scheduleStore(call.ctx).delete(found.stored.id))) return monitorNotFound();
  call.scheduler.wake();
  await forgetSearches(call.ctx.store, found.stored.id, found.monitor.meta);
  await deleteMonitorRecords(call.ctx.store, found.stored.id);
  await deleteRunRecords(call.ctx.store, found.stored.id, scheduleCodec.decode(found.stored.value));
  await deleteHistories(call.ctx.store, historyTags(found.stored.id, found.monitor));
  return { success: true };
}

/** `POST /v2/monitor/:id/run`: a check now, out of the monitor's clock (a paused monitor too). */
export async function runMonitor(
  call: MonitorCall,
  id: string,
): Promise<{ success: true; data: MonitorCheckView } | ErrorResponse> {
  const found = await findMonitor(call, id);
  if (!found) return monitorNotFound();
  const run = await call.scheduler.runNow(found.stored.id);
  const checkId = checkIdOf(found.stored.id, run);
  const check = await readCheck(call.ctx.store, checkId);
  if (!check) throw new Error(`The check ${checkId} of monitor ${id} was not recorded.`);
  return {
    success: true,
    data: checkView(checkId, check, await checkState(call.ctx, call.jobs, checkId, check)),
  };
}

/** The monitor of `id` when the caller may see it, with its schedule. */
export async function findMonitor(
  call: MonitorCall,
  id: string,
): Promise<{ stored: StoredSchedule; monitor: MonitorValue } | undefined> {
  const stored = await scheduleStore(call.ctx).get(String(id));
  if (!stored || !visible(stored, call.tenant)) return undefined;
  const monitor = await readMonitor(call.ctx.store, stored.id);
  return monitor ? { stored, monitor } : undefined;
}

async function latestCheck(
  call: MonitorCall,
  found: { stored: StoredSchedule; monitor: MonitorValue },
): Promise<LatestCheck | undefined> {
  let id: string | undefined;
  for await (id of listChecks(call.ctx.store, found.stored.id, found.monitor.retentionDays)) break;
  const check = id ? await readCheck(call.ctx.store, id) : undefined;
  if (!id || !check) return undefined;
  const { status, summary } = await checkState(call.ctx, call.jobs, id, check);
  return { id, startedAt: check.startedAt, status, summary };
}

const secretsOf = (call: MonitorCall) => call.ctx.secrets(call.ctx.store);

const hasProvider = (call: MonitorCall) => call.ctx.options.search.provider !== undefined;

function nextOf(value: ScheduleValue, now: number): number {
  return firstFiring(clockOf(value), now) ?? NEVER;
}

type ChangeKind = Exclude<MonitorWebhookEvent, typeof CHECK_COMPLETED>;

/** The schedule's webhook of a monitor's: its page events (none when it asks for `monitor.check.completed` only). */
function scheduleWebhookOf(webhook: MonitorWebhookInput) {
  const events = webhook.events ?? (['new', 'changed', 'removed'] as const);
  return {
    url: webhook.url,
    headers: webhook.headers ?? {},
    metadata: webhook.metadata ?? {},
    events: events.filter((event): event is ChangeKind => event !== CHECK_COMPLETED),
  };
}

/** The webhook as a schedule validates it (which needs a page event: the default stands in for none). */
function validated(webhook: ReturnType<typeof scheduleWebhookOf> | undefined) {
  return webhook && webhook.events.length === 0 ? { ...webhook, events: undefined } : webhook;
}

const checkCompletedOf = (webhook: MonitorWebhookInput | null | undefined) =>
  webhook?.events?.includes(CHECK_COMPLETED) ?? false;
