import { redactUrl } from '@crawlkit/fetcher';
import { parseRetryAfter } from '@crawlkit/frontier';

import type { PostAnswer } from './dispatcher-options.js';

/** What one delivery attempt's answer means: delivered, or why not and whether another attempt may do better. */
export type AnswerOutcome =
  | { delivered: true }
  /** `retryAfterMs`: the wait the receiver asked for (`Retry-After` of a 429 or 503), when it asked. */
  | { delivered: false; error: string; retry: boolean; retryAfterMs?: number };

function locationOf(url: string, answer: PostAnswer): string | undefined {
  const location = answer.headers['location'];
  if (!location) return undefined;
  try {
    return redactUrl(new URL(location, url));
  } catch {
    return undefined;
  }
}

/**
 * Reads the answer of the receiver at `url`. 2xx delivers; 5xx, 408 and 429 may pass (after the `Retry-After` of a 429
 * or 503, when it says one); a redirect is not followed
 * (301, 302 and 303 would turn the POST into a GET without the event, and a redirect elsewhere would carry the
 * event's headers there) and, like other 4xx, is given up at once, saying where the webhook should point.
 */
export function readAnswer(url: string, answer: PostAnswer): AnswerOutcome {
  const { status } = answer;
  if (status >= 200 && status < 300) return { delivered: true };
  const error = `the webhook answered HTTP ${status}`;
  if (status >= 300 && status < 400) {
    const location = locationOf(url, answer);
    return {
      delivered: false,
      retry: false,
      error: location
        ? `${error} redirecting to ${location}: webhook deliveries do not follow redirects, set webhook.url to the ` +
          'address it redirects to'
        : `${error} (a redirect without a location): webhook deliveries do not follow redirects`,
    };
  }
  const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(answer.headers['retry-after']) : undefined;
  return {
    delivered: false,
    error: retryAfterMs !== undefined ? `${error}, retry after ${Math.ceil(retryAfterMs / 1000)} s` : error,
    retry: status >= 500 || status === 408 || status === 429,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
}

/**
 * What an attempt that got no answer says, in the job's errors and the give-up warning: the HTTP client's error, but a
 * time-out said as the receiver's (the client words it as a scrape's, "Scrape timed out after 10000 ms."), with the
 * option that sets it and what a receiver should do.
 */
export function attemptError(cause: unknown, timeoutMs: number): string {
  if ((cause as { code?: unknown } | null)?.code === 'SCRAPE_TIMEOUT') {
    return (
      `the webhook did not answer within ${timeoutMs} ms (webhooks.timeoutMs): answer 2xx at once and do the work ` +
      'after'
    );
  }
  return cause instanceof Error ? cause.message : String(cause);
}

/**
 * The wait before the attempt after `attempts` failed ones: `retryDelayMs` doubling, capped at `maxRetryDelayMs` so a
 * receiver back from an outage gets its events within that much (its job's later events wait behind the head); the
 * receiver's `Retry-After` when longer, up to the same cap.
 */
export function retryDelay(
  attempts: number,
  retryAfterMs: number | undefined,
  options: { retryDelayMs: number; maxRetryDelayMs: number },
): number {
  const backOff = Math.max(options.retryDelayMs * 2 ** (attempts - 1), retryAfterMs ?? 0);
  return Math.min(backOff, options.maxRetryDelayMs);
}
