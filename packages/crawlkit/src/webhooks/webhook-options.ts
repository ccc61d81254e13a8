import { nonNegativeInt, positiveInt } from '@crawlkit/options';
import { z } from 'zod';

import { OPTION_NAMES, type OptionNames } from '../operator-words.js';
import { WEBHOOK_TIMEOUT_MS } from './dispatcher-options.js';

/**
 * The check of the engine's `webhooks` option (`WebhookOptions`, documented there), with its defaults. Not
 * in dispatcher-options.ts, which every CLI start reads: a command refused for its flags loads no zod.
 */
export const webhookOptionsSchema = z
  .strictObject({
    secret: z.string().min(1).optional(),
    timeoutMs: positiveInt.default(WEBHOOK_TIMEOUT_MS),
    closeTimeoutMs: nonNegativeInt.default(2_000),
    maxAttempts: positiveInt.default(22),
    retryDelayMs: positiveInt.default(1_000),
    maxRetryDelayMs: positiveInt.default(30_000),
    optionNames: z.enum(OPTION_NAMES).default('engine'),
  })
  .prefault({});

/** The engine's `webhooks` option: how job events are delivered (`CrawlkitOptions.webhooks`). */
export interface WebhookOptions {
  /**
   * HMAC-SHA256 secret: each delivery carries `X-Crawlkit-Signature: sha256=<hex>` (and the same value under
   * `X-Firecrawl-Signature`) plus a timestamp signature; check them with `verifyWebhook()`.
   * @default undefined (deliveries are unsigned)
   */
  secret?: string;
  /**
   * Time one delivery attempt may take, in milliseconds.
   * @default 10000
   */
  timeoutMs?: number;
  /**
   * Time `close()` gives the events queued and not tried yet (a job's `completed`) and the attempts under way, in
   * milliseconds; then it stops them. A stopped attempt counts as none: on a store on disk the event stays due and
   * the next engine sends it; a memory store's are lost (a `WEBHOOK_EVENTS_DROPPED` warning names them).
   * @default 2000
   */
  closeTimeoutMs?: number;
  /**
   * Attempts per event before it is given up and recorded in the job's errors (network errors, timeouts, 5xx,
   * 408 and 429 are retried; other 4xx and URL-policy refusals give up at once). With the default delays, 22
   * attempts span 511 s (~8.5 minutes) before the event is given up.
   * @default 22
   */
  maxAttempts?: number;
  /**
   * Delay before the first retry in milliseconds; it doubles per attempt (1 s, 2 s, 4 s, ... with the default), up
   * to `maxRetryDelayMs`. A 429 or 503 whose `Retry-After` asks for longer waits that long (up to `maxRetryDelayMs`).
   * @default 1000
   */
  retryDelayMs?: number;
  /**
   * Longest delay between two attempts, in milliseconds: a receiver back from an outage gets its events within it
   * (a job's events wait behind its first undelivered one).
   * @default 30000 (30 seconds)
   */
  maxRetryDelayMs?: number;
  /**
   * How an event's `error` and its documents' `warning` name the engine options they mention (`extractionBudgetMs`):
   * `'engine'` by their names, as the function API's answers; `'serve'` or `'mcp'` as that command's operator's
   * setting, by its flag (`crawlkit serve --extraction-budget`), as the command's answers do, since the receiver
   * of a job started through it cannot set them. `crawlkit serve` and `crawlkit mcp` set theirs. Each job records
   * the words of the engine that started it, and its events keep them whichever process sends them (a Redis
   * `crawlkit worker` leading the outbox); this engine's apply to the jobs stored before that record.
   * @default 'engine'
   */
  optionNames?: OptionNames;
}
