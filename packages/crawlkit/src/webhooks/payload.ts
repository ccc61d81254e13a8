import type { UrlPolicy } from '@crawlkit/fetcher';
import type { JobKind } from '@crawlkit/store';

import type { OptionNames } from '../operator-words.js';
import type { Webhook } from '../v2/jobs.js';
import type { Document, ScheduleChangePayload, WebhookEventType, WebhookPayload } from '../v2/types.js';

export type WebhookEvent = 'started' | 'page' | 'completed' | 'failed';

/** What the outbox keeps for one delivery: where to send it and the body. Secrets are added at send time. */
export interface StoredDelivery {
  url: string;
  headers: Record<string, string>;
  body: WebhookPayload | ScheduleChangePayload;
  /**
   * The job's URL policy (`StoredJob.urlPolicy`), which gates the POST in whichever process sends it, on top of that
   * process's own; `null` when the job has none. Absent on deliveries queued before it was recorded: the job's is
   * read then.
   */
  urlPolicy?: UrlPolicy | null;
  /**
   * The job's webhook secret, sealed (`StoredJob.webhookSecret`), which signs the POST wherever it is sent; `null`
   * when the job has none (the sending process's own signs it). Absent on deliveries queued before it was recorded:
   * the job's is read then.
   */
  secret?: string | null;
  /**
   * How the job's events name engine options (`StoredJob.optionNames`, the surface that started it), wherever they are
   * sent. Absent when the job recorded none: the sending process's own `webhooks.optionNames` apply.
   */
  optionNames?: OptionNames;
}

const PREFIX: Record<JobKind, 'crawl' | 'batch_scrape'> = { crawl: 'crawl', batch: 'batch_scrape' };

/** Whether the webhook asked for this event (an empty list means all, reference §16). */
export function wantsEvent(webhook: Webhook, event: WebhookEvent): boolean {
  return webhook.events.length === 0 || webhook.events.includes(event);
}

export function buildPayload(options: {
  kind: JobKind;
  event: WebhookEvent;
  jobId: string;
  webhookId: string;
  webhook: Webhook;
  success: boolean;
  data?: Document[] | { metadata: { sourceURL: string } }[];
  error?: string;
}): WebhookPayload {
  const payload: WebhookPayload = {
    success: options.success,
    type: `${PREFIX[options.kind]}.${options.event}` as WebhookEventType,
    id: options.jobId,
    webhookId: options.webhookId,
    data: options.data ?? [],
    metadata: options.webhook.metadata,
    error: options.error ?? null,
  };
  return payload;
}
