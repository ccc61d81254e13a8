import { randomUUID } from 'node:crypto';

import { checkUrlAgainstPolicy, isFetchError, type UrlPolicy } from '@crawlkit/fetcher';
import { isStoreError, type Delivery, type JobRecord, type SecretBox, type Store } from '@crawlkit/store';
import { uuidV5 } from '../uuid-v5.js';

import { CrawlkitError } from '../errors.js';
import { storedUrlPolicy } from '../jobs/job-policy.js';
import type { Webhook } from '../v2/jobs.js';
import type { Document } from '../v2/types.js';
import { buildPayload, wantsEvent, type StoredDelivery, type WebhookEvent } from './payload.js';
import { RESERVED_HEADERS } from './signature.js';
import { deliveryCodec, storedJobOf } from '../codec/records.js';
import { shownWebhookUrl } from '../jobs/job-secrets.js';

/** One job event for the webhook outbox. */
export interface JobWebhookEvent {
  event: WebhookEvent;
  success: boolean;
  /** `[document]` for a page, `[{ metadata: { sourceURL } }]` for a failed page. */
  data?: Document[] | { metadata: { sourceURL: string } }[];
  error?: string;
  /**
   * The task a page event is about. Its delivery id is derived from the job id and this key, so a page scraped again
   * after a crash (before its completion was stored) does not queue a second event.
   */
  taskKey?: string;
}

/** The webhook of a job's stored request. */
export function jobWebhook(job: JobRecord): Webhook | undefined {
  return storedJobOf<object>(job).webhook;
}

/**
 * Refuses a webhook whose URL the submitting engine's policy refuses (`URL_BLOCKED`), before its job exists, as a
 * seed is refused. Its deliveries are gated again at connect time, under the job's policy, wherever they are sent.
 */
export function checkWebhookUrl(url: string, policy: Readonly<UrlPolicy>): void {
  try {
    checkUrlAgainstPolicy(url, policy);
  } catch (error) {
    if (!isFetchError(error) || error.code !== 'URL_BLOCKED') throw error;
    throw new CrawlkitError('URL_BLOCKED', `The webhook is refused: ${error.message}`, { cause: error });
  }
}

function userHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !RESERVED_HEADERS.has(name.toLowerCase())));
}

/**
 * Appends a job event to the store's webhook outbox when the job has a webhook that asked for it. Returns the queued
 * delivery (hand it to the dispatcher), or undefined when nothing was queued. The dispatcher sends it in the
 * background, in order after the job's earlier events.
 */
export async function queueWebhookEvent(
  store: Store,
  job: JobRecord,
  input: JobWebhookEvent,
): Promise<Delivery | undefined> {
  const webhook = jobWebhook(job);
  if (!webhook || !wantsEvent(webhook, input.event)) return undefined;
  const webhookId = input.taskKey !== undefined ? uuidV5(`${input.event}\n${input.taskKey}`, job.id) : randomUUID();
  const body = buildPayload({
    kind: job.kind,
    event: input.event,
    jobId: job.id,
    webhookId,
    webhook,
    success: input.success,
    ...(input.data ? { data: input.data } : {}),
    ...(input.error !== undefined ? { error: input.error } : {}),
  });
  const { webhookSecret, optionNames } = storedJobOf<object>(job);
  const stored: StoredDelivery = {
    url: webhook.url,
    headers: userHeaders(webhook.headers),
    body,
    urlPolicy: storedUrlPolicy(job) ?? null,
    secret: webhookSecret ?? null,
    ...(optionNames ? { optionNames } : {}),
  };
  try {
    return await store.deliveries.enqueue({
      id: webhookId,
      jobId: job.id,
      payload: deliveryCodec.encode(stored),
      nextAttemptAt: Date.now(),
    });
  } catch (error) {
    // The page was scraped again after a crash: its event is already in the outbox.
    if (isStoreError(error) && error.code === 'STORE_DELIVERY_EXISTS') return undefined;
    throw error;
  }
}

/**
 * Records a webhook event the dispatcher gave up in the job's errors, its URL opened by `box` and shown without its
 * password; resolves with the error's message.
 */
export async function recordUndelivered(
  store: Store,
  delivery: Delivery,
  error: string,
  box: SecretBox | undefined,
): Promise<string> {
  const stored = deliveryCodec.decode(delivery.payload);
  const message = `Webhook event ${stored.body.type} was not delivered after ${delivery.attempts} ${delivery.attempts === 1 ? 'attempt' : 'attempts'}: ${error}`;
  await store.results.addError(delivery.jobId, {
    url: shownWebhookUrl(stored.url, box),
    code: 'WEBHOOK_DELIVERY_FAILED',
    error: message,
  });
  return message;
}
