/**
 * `monitor.check.completed`: one webhook event when a check closes (its id, status and summary), to the monitor's
 * webhook when its `events` ask for it. It goes through the webhook outbox of one of the check's crawls, as the page
 * events do (same signing, retries, URL policy and lease); its id is derived from the check's, so a check closed by
 * two processes at once is sent once.
 */
import { isStoreError, type Delivery, type Store } from '@crawlkit/store';
import { v5 as uuidv5 } from 'uuid';

import { deliveryCodec, scheduleCodec } from '../codec/records.js';
import { storedUrlPolicy } from '../jobs/job-policy.js';
import type { JobManager } from '../jobs/job-manager.js';
import type { ScheduleChangePayload } from '../v2/types.js';
import { RESERVED_HEADERS } from '../webhooks/signature.js';
import type { MonitorCheckValue, MonitorValue } from './monitor-store.js';

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
  const stored = await store.schedules?.get(check.monitorId);
  const webhook = stored && scheduleCodec.decode(stored.value).webhook;
  if (!webhook) return;
  let found: Awaited<ReturnType<JobManager['find']>>;
  for (const jobId of check.jobIds) if (!found && jobId !== null) found = await jobs.find(jobId);
  // A check whose crawls all expired has no outbox to go through.
  if (!found) return;
  const { job, store: jobStore } = found;
  const webhookId = uuidv5(CHECK_COMPLETED, checkId);
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
    metadata: webhook.metadata,
  };
  const headers = Object.fromEntries(
    Object.entries(webhook.headers).filter(([name]) => !RESERVED_HEADERS.has(name.toLowerCase())),
  );
  const payload = deliveryCodec.encode({
    url: webhook.url,
    headers,
    body: body as unknown as ScheduleChangePayload,
    urlPolicy: storedUrlPolicy(job) ?? null,
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
    // Queued by the process that closed the check first.
    if (!isStoreError(error) || error.code !== 'STORE_DELIVERY_EXISTS') throw error;
  }
}
