import { sleep } from '@crawlkit/actions/sleep';
import type { APICallError } from 'ai';

import { CrawlkitError } from '../errors.js';

/** The first back-off when the server gives no `Retry-After`, doubled at each retry. */
const FIRST_DELAY_MS = 2_000;
/** The longest `Retry-After` a model call waits for; a server asking more is rate limiting for longer than a page. */
export const MAX_RETRY_AFTER_MS = 60_000;

type CallErrorClass = { isInstance(error: unknown): error is APICallError };

/** Told that a model call waits `waitMs` before its retry, and why (`429, Retry-After`, `503`, `no answer`). */
export type RetryWaitListener = (waitMs: number, why: string) => void;

/** The wait a server asked for: `retry-after-ms`, else `Retry-After` in seconds or as an HTTP date. */
function retryAfterMs(error: APICallError): number | undefined {
  const headers = error.responseHeaders ?? {};
  const ms = Number.parseFloat(headers['retry-after-ms'] ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers['retry-after'];
  if (value === undefined) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/** What the server said, without the SDK's wrapping: its error message when the body has one. */
function serverSaid(error: APICallError): string {
  return error.message.replace(/^AI_APICallError:\s*/, '');
}

/**
 * Runs a model call, retrying what may pass (429, 408, 5xx, a connection lost: the SDK's `isRetryable`) up to
 * `maxRetries` times: after the server's `Retry-After` when it gives one, else 2 s doubling. A server asking to wait
 * longer than `MAX_RETRY_AFTER_MS` is not waited for (nor asked again sooner than it said): the call fails at once,
 * saying so. An abort ends a wait. Exhausted retries fail with `LLM_REQUEST_FAILED` naming the status and what the
 * server said; other errors (a 400, an abort) are thrown as they are.
 */
export async function withRetries<T>(
  call: () => Promise<T>,
  settings: {
    maxRetries: number;
    signal?: AbortSignal | undefined;
    APICallError: CallErrorClass;
    /** Told each wait before a retry, with the status that caused it, for the page's timeout message. */
    onRetryWait?: RetryWaitListener | undefined;
  },
): Promise<T> {
  const { maxRetries, signal, APICallError } = settings;
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (signal?.aborted || !APICallError.isInstance(error) || !error.isRetryable) throw error;
      const status = error.statusCode === undefined ? 'no answer' : `${error.statusCode}`;
      const code = error.statusCode;
      const asked = retryAfterMs(error);
      if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) {
        throw new CrawlkitError(
          'LLM_REQUEST_FAILED',
          `The language model request failed: the server answered ${status} (${serverSaid(error)}) and asks to ` +
            `retry after ${Math.round(asked / 1000)} s, longer than a model call waits (` +
            `${MAX_RETRY_AFTER_MS / 1000} s). Lower \`llm.concurrency\`, or scrape the page again later.`,
          { cause: error },
        );
      }
      if (attempt >= maxRetries) {
        const times = attempt === 0 ? '' : `, ${attempt + 1} times`;
        const answered =
          code === undefined
            ? 'the server did not answer'
            : code < 300
              ? `the server's answer (${code}) was cut off`
              : `the server answered ${status}`;
        throw new CrawlkitError(
          'LLM_REQUEST_FAILED',
          `The language model request failed: ${answered} (${serverSaid(error)})${times}.`,
          { cause: error },
        );
      }
      const waitMs = asked ?? FIRST_DELAY_MS * 2 ** attempt;
      settings.onRetryWait?.(waitMs, asked === undefined ? status : `${status}, Retry-After`);
      await sleep(waitMs, signal);
      signal?.throwIfAborted();
    }
  }
}
