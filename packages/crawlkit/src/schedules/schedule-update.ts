/** `PATCH /v2/schedule/:id`: changes a schedule in place, keeping its id, its runs and its unchanged targets' feeds. */
import { isDeepStrictEqual } from 'node:util';

import type { StoredSchedule } from '@crawlkit/store';

import { deleteLineage, tagLineage } from '../changes/change-feed.js';
import { scheduleCodec } from '../codec/records.js';
import { toErrorResponse } from '../errors.js';
import { openRequestSecrets } from '../jobs/job-secrets.js';
import { readMonitor } from '../monitors/monitor-store.js';
import { parseBody } from '../v2/parse.js';
import type { ErrorResponse } from '../v2/types.js';
import { nextFiring } from './schedule-clock.js';
import {
  notFound,
  scheduleStore,
  sealedTargets,
  sealedWebhook,
  viewOf,
  visible,
  type ScheduleCall,
  type ScheduleResponse,
} from './schedule-api.js';
import {
  clockOf,
  scheduleClockSchema,
  updateScheduleSchema,
  type ScheduleTarget,
  type UpdateScheduleInput,
} from './schedule-request.js';
import { targetTag, type ScheduleValue } from './schedule-runs.js';
import { NEVER } from './scheduler.js';

/**
 * Each field the body gives replaces the schedule's; the rest stays. A new clock fires from its first firing after
 * now (an interval one interval after the update); a paused schedule stays paused. A target replaced by another (or
 * taken out) loses its last crawl, which the next run would have compared with; a target given as it was keeps it.
 */
export async function updateSchedule(
  call: ScheduleCall,
  id: string,
  body: UpdateScheduleInput,
): Promise<ScheduleResponse | ErrorResponse> {
  const parsed = parseBody(updateScheduleSchema, body);
  if (!parsed.ok) return parsed.error;
  const request = parsed.value;
  const schedules = scheduleStore(call.ctx);
  const stored = await schedules.get(String(id));
  if (!stored || !visible(stored, call.tenant)) return notFound();
  const monitor = await readMonitor(call.ctx.store, stored.id);
  if (monitor) {
    return {
      success: false,
      code: 'BAD_REQUEST',
      error:
        `Schedule ${stored.id} runs the monitor "${monitor.name}", which keeps its own schedule and targets: ` +
        `change them on the monitor (PATCH /v2/monitor/${stored.id}, or monitors.update).`,
    };
  }
  const value = scheduleCodec.decode(stored.value);
  const newClock = request.every !== undefined || request.cron !== undefined;
  const clock = clockChecked(value, request, newClock);
  if (!clock.ok) return clock.error;
  let changes: Partial<ScheduleValue>;
  try {
    changes = {
      ...(request.targets ? { targets: sealedTargets(call, request.targets) } : {}),
      ...(request.webhook ? sealedWebhook(call, request.webhook) : {}),
    };
  } catch (error) {
    return toErrorResponse(error);
  }
  const { name, every: _every, cron: _cron, timezone: _zone, webhook, webhookSecret, paused, ...kept } = value;
  const nextName = request.name === null ? undefined : (request.name ?? name);
  const next: ScheduleValue = {
    ...kept,
    ...(nextName !== undefined ? { name: nextName } : {}),
    ...clock.value,
    ...(request.webhook === undefined && webhook
      ? { webhook, ...(webhookSecret !== undefined ? { webhookSecret } : {}) }
      : {}),
    ...changes,
  };
  const now = Date.now();
  const clockChanged = newClock || (request.timezone !== undefined && request.timezone !== value.timezone);
  const firing = clockChanged ? (nextFiring(clockOf(next), now, now) ?? NEVER) : undefined;
  if (paused) next.paused = firing === undefined ? paused : { at: paused.at, nextRunAt: firing };
  const updated: StoredSchedule = {
    ...stored,
    value: scheduleCodec.encode(next),
    nextRunAt: paused || firing === undefined ? stored.nextRunAt : firing,
  };
  await schedules.put(updated);
  call.scheduler.wake();
  // The last crawl of a target that is no longer the same: the next run starts its feed anew.
  const box = call.ctx.secrets(call.ctx.store);
  for (const [index, target] of value.targets.entries()) {
    if (!request.targets || sameTarget(() => openRequestSecrets(target, box), request.targets[index])) continue;
    await deleteLineage(call.ctx.store, tagLineage(targetTag(stored.id, index), value.tenant));
  }
  return { success: true, data: await viewOf(call.ctx, updated) };
}

/** Whether a stored target (its header values opened: sealing differs each time) is the one given. */
function sameTarget(opened: () => ScheduleTarget, given: ScheduleTarget | undefined): boolean {
  try {
    return given !== undefined && isDeepStrictEqual(opened(), given);
  } catch {
    // Sealed with another key: not known to be the same.
    return false;
  }
}

/** The clock the update leaves, checked as a new schedule's is. */
function clockChecked(value: ScheduleValue, request: UpdateScheduleInput, newClock: boolean) {
  const given = newClock
    ? request.every !== undefined
      ? { every: request.every }
      : { cron: request.cron! }
    : value.every !== undefined
      ? { every: value.every }
      : { cron: value.cron! };
  const timezone = request.timezone ?? (newClock ? undefined : value.timezone);
  return parseBody(scheduleClockSchema, { ...given, ...(timezone !== undefined ? { timezone } : {}) });
}
