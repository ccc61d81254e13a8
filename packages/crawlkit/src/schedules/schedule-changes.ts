/**
 * The webhook of a schedule: once a run's crawl has completed, one POST per change of its feed that the webhook asks
 * for (`new`, `changed`, `removed` by default), queued in the crawl job's webhook outbox. Each event's id is derived
 * from the job and the URL, so queuing a run's changes again (after a restart) adds nothing already queued.
 */
import { isStoreError, type Delivery, type Store } from '@crawlkit/store';
import { uuidV5 } from '../uuid-v5.js';

import { getCrawlChanges } from '../api/crawl-changes.js';
import { deliveryCodec, type scheduleCodec } from '../codec/records.js';
import { storedUrlPolicy } from '../jobs/job-policy.js';
import type { JobManager } from '../jobs/job-manager.js';
import { RESERVED_HEADERS } from '../webhooks/signature.js';
import type { ScheduleChangePayload } from '../v2/types.js';

/** Feed entries read at once. */
const FEED_PAGE = 1_000;

type StoredScheduleValue = ReturnType<typeof scheduleCodec.decode>;

/** What a run's changes are queued for: the schedule, the target's index and its completed crawl. */
export interface RunChanges {
  scheduleId: string;
  schedule: StoredScheduleValue;
  target: number;
  jobId: string;
}

/**
 * Queues the webhook events of a completed crawl's changes; resolves to how many were queued now. `queued` hands each
 * to the dispatcher.
 */
export async function queueChangeWebhooks(
  jobs: JobManager,
  run: RunChanges,
  queued: (store: Store, delivery: Delivery) => void,
): Promise<number> {
  const webhook = run.schedule.webhook;
  const found = await jobs.find(run.jobId);
  if (!webhook || !found || found.job.status !== 'completed') return 0;
  const { job, store } = found;
  const headers = Object.fromEntries(
    Object.entries(webhook.headers).filter(([name]) => !RESERVED_HEADERS.has(name.toLowerCase())),
  );
  let count = 0;
  for (let skip = 0; ; skip += FEED_PAGE) {
    const page = await getCrawlChanges(jobs, run.jobId, { skip, limit: FEED_PAGE });
    if (!page.success) throw new Error(`The change feed of crawl ${run.jobId} cannot be read: ${page.error}`);
    for (const { url, change } of page.data) {
      if (!(webhook.events as string[]).includes(change)) continue;
      const webhookId = uuidV5(`schedule.change\n${url}`, job.id);
      const body: ScheduleChangePayload = {
        success: true,
        type: 'schedule.change',
        id: run.scheduleId,
        jobId: job.id,
        webhookId,
        data: [{ url, change, target: run.target }],
        metadata: webhook.metadata,
      };
      const payload = deliveryCodec.encode({
        url: webhook.url,
        headers,
        body,
        urlPolicy: storedUrlPolicy(job) ?? null,
        secret: run.schedule.webhookSecret ?? null,
      });
      try {
        queued(
          store,
          await store.deliveries.enqueue({ id: webhookId, jobId: job.id, payload, nextAttemptAt: Date.now() }),
        );
        count++;
      } catch (error) {
        // Queued before a restart.
        if (!isStoreError(error) || error.code !== 'STORE_DELIVERY_EXISTS') throw error;
      }
    }
    if (page.data.length === 0 || !page.next) return count;
  }
}
