import { nonNegativeInt, positiveInt } from '@crawlkit/options';
import { z } from 'zod';

import { WEBHOOK_TIMEOUT_MS } from './dispatcher-options.js';

/**
 * The check of the engine's `webhooks` option (`CrawlkitOptions.webhooks`, documented there), with its defaults. Not
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
  })
  .prefault({});
