/**
 * `monitor.check.completed`: one webhook event when a check closes (its id, status and summary), to the monitor's
 * webhook when its `events` ask for it. It goes through the webhook outbox of one of the check's crawls, as the page
 * events do (same signing, retries, URL policy and lease); its id is derived from the check's, so a check closed by
 * two processes at once is sent once.
 */
import { isStoreError, type Delivery, type Store } from '@crawlkit/store';
import { uuidV5 } from '../uuid-v5.js';

import { deliveryCodec, scheduleCodec } from '../codec/records.js';
import { storedUrlPolicy } from '../jobs/job-policy.js';
import type { JobManager } from '../jobs/job-manager.js';
import type { ScheduleChangePayload } from '../v2/types.js';
import { RESERVED_HEADERS } from '../webhooks/signature.js';
import type { MonitorCheckPage, MonitorCheckValue, MonitorValue } from './monitor-store.js';

export const CHECK_COMPLETED = 'monitor.check.completed';

/** The body POSTed for a closed check. */
export interface MonitorCheckCompletedPayload {
  success: true;
  type: typeof CHECK_COMPLETED;
  /** The monitor's id. */
  id: string;
  webhookId: string;
  data: [
    {
      monitorId: string;
      checkId: string;
      status: NonNullable<MonitorCheckValue['closed']>['status'];
      trigger: MonitorCheckValue['trigger'];
      startedAt: string;
      finishedAt: string;
      summary: NonNullable<MonitorCheckValue['closed']>['summary'];
    },
  ];
  metadata?: Record<string, string>;
}

type Found = NonNullable<Awaited<ReturnType<JobManager['find']>>>;
type Schedule = ReturnType<typeof scheduleCodec.decode>;

/** The monitor's schedule when it has a webhook. */
async function withWebhook(
  store: Store,
  monitorId: string,
): Promise<(Schedule & Required<Pick<Schedule, 'webhook'>>) | undefined> {
  const stored = await store.schedules?.get(monitorId);
  const schedule = stored && scheduleCodec.decode(stored.value);
  return schedule?.webhook ? { ...schedule, webhook: schedule.webhook } : undefined;
}

/** Queues one event in the outbox of a job of the check; one queued before (by another closer) is left as it is. */
async function enqueue(
  found: Found,
  schedule: Schedule & Required<Pick<Schedule, 'webhook'>>,
  webhookId: string,
  body: MonitorCheckCompletedPayload | ScheduleChangePayload,
  queued: ((store: Store, delivery: Delivery) => void) | undefined,
): Promise<void> {
  const { job, store: jobStore } = found;
  const { webhook } = schedule;
  const headers = Object.fromEntries(
    Object.entries(webhook.headers).filter(([name]) => !RESERVED_HEADERS.has(name.toLowerCase())),
  );
  const payload = deliveryCodec.encode({
    url: webhook.url,
    headers,
    body: body as ScheduleChangePayload,
    urlPolicy: storedUrlPolicy(job) ?? null,
    secret: schedule.webhookSecret ?? null,
  });
  try {
    const delivery = await jobStore.deliveries.enqueue({
      id: webhookId,
      jobId: job.id,
      payload,
      nextAttemptAt: Date.now(),
    });
    queued?.(jobStore, delivery);
  } catch (error) {
    if (!isStoreError(error) || error.code !== 'STORE_DELIVERY_EXISTS') throw error;
  }
}

/** Queues the event of a closed check when its monitor's webhook asks for it; `queued` hands it to a dispatcher. */
export async function queueCheckCompleted(
  store: Store,
  jobs: JobManager,
  checkId: string,
  check: MonitorCheckValue,
  monitor: MonitorValue | undefined,
  queued?: (store: Store, delivery: Delivery) => void,
): Promise<void> {
  const closed = check.closed;
  if (!closed || !monitor?.checkCompleted) return;
  const schedule = await withWebhook(store, check.monitorId);
  if (!schedule) return;
  let found: Awaited<ReturnType<JobManager['find']>>;
  const jobIds = [...check.jobIds, ...(check.searches ?? []).map((searched) => searched.batchId)];
  for (const jobId of jobIds) if (!found && jobId !== null) found = await jobs.find(jobId);
  // A check whose crawls all expired has no outbox to go through.
  if (!found) return;
  const webhookId = uuidV5(CHECK_COMPLETED, checkId);
  const body: MonitorCheckCompletedPayload = {
    success: true,
    type: CHECK_COMPLETED,
    id: check.monitorId,
    webhookId,
    data: [
      {
        monitorId: check.monitorId,
        checkId,
        status: closed.status,
        trigger: check.trigger,
        startedAt: new Date(check.startedAt).toISOString(),
        finishedAt: new Date(closed.finishedAt).toISOString(),
        summary: closed.summary,
      },
    ],
    metadata: schedule.webhook.metadata,
  };
  await enqueue(found, schedule, webhookId, body, queued);
}

/**
 * The page events of a closed check's search targets (`schedule.change`, as a crawl's, `target` the monitor target's
 * index), through the outbox of each target's batch: a target whose search found nothing to scrape sends none.
 */
export async function queueSearchChanges(
  store: Store,
  jobs: JobManager,
  check: MonitorCheckValue,
  pages: MonitorCheckPage[],
  queued?: (store: Store, delivery: Delivery) => void,
): Promise<void> {
  if (!check.searches?.length) return;
  const schedule = await withWebhook(store, check.monitorId);
  if (!schedule) return;
  const events: readonly string[] = schedule.webhook.events;
  for (const { target, batchId } of check.searches) {
    const found = batchId === null ? undefined : await jobs.find(batchId);
    if (!found) continue;
    const targetId = check.meta[target]!.id;
    for (const { url, status, targetId: own } of pages) {
      if (own !== targetId || status === 'error' || !events.includes(status)) continue;
      const webhookId = uuidV5(`schedule.change\n${url}`, found.job.id);
      const body: ScheduleChangePayload = {
        success: true,
        type: 'schedule.change',
        id: check.monitorId,
        jobId: found.job.id,
        webhookId,
        data: [{ url, change: status, target }],
        metadata: schedule.webhook.metadata,
      };
      await enqueue(found, schedule, webhookId, body, queued);
    }
  }
}
