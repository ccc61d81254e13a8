import type { UrlPolicy } from '@crawlkit/fetcher';
import type { Delivery, SecretBox, Store } from '@crawlkit/store';
import type { OptionNames } from '../operator-words.js';
import type { TellWarning } from '../warning-codes.js';

/** The answer to one delivery POST: its status and headers (names lower-cased). */
export interface PostAnswer {
  status: number;
  headers: Record<string, string>;
}

/**
 * Sends one HTTP POST under the job's URL policy `policy` (on top of the sending process's own), without following
 * redirects; resolves with the answer, rejects on network errors, with `URL_BLOCKED` for a refused target, and once
 * `signal` aborts (the dispatcher closing).
 */
export type PostJson = (
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  policy: UrlPolicy | undefined,
  signal: AbortSignal,
) => Promise<PostAnswer>;

/** Time one delivery attempt may take by default (`webhooks.timeoutMs`), in milliseconds. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** How events are delivered: the engine's `webhooks` option as resolved. */
export interface DeliverySettings {
  /**
   * HMAC-SHA256 secret for the signature headers of the events whose job recorded none (`StoredJob.webhookSecret`,
   * which signs the others); unsigned without either.
   */
  secret?: string;
  /** Time one delivery attempt may take, in milliseconds. */
  timeoutMs: number;
  /**
   * Time `close()` gives the events queued here and not tried yet, and the attempts in flight, before it stops them
   * (not counted as attempts: they stay due in the store for the next engine), in milliseconds.
   */
  closeTimeoutMs: number;
  /** Attempts per event before it is given up. */
  maxAttempts: number;
  /** Delay before the first retry in milliseconds; doubles per attempt. */
  retryDelayMs: number;
  /** Longest delay between two attempts, in milliseconds. */
  maxRetryDelayMs: number;
  /** How an event names the engine options its messages mention (`WebhookOptions.optionNames`). */
  optionNames: OptionNames;
}

export interface DispatcherOptions extends DeliverySettings {
  post: PostJson;
  /** Jobs delivering at once (each job sends one event at a time, in order). @default 16 */
  lanes?: number;
  /**
   * Takes the right to send a job's events (the job's lease, shared with its driver in this process) unless another
   * live process has it; resolves to a function that lets it go, or undefined (that process sends them). `lost` is
   * called when another process takes it over. Held while the job has events to send here.
   * @default every job's events are sent here
   */
  claim?(store: Store, jobId: string, lost: () => void): Promise<(() => Promise<void>) | undefined>;
  /** What opens the sealed header values of a store's deliveries. @default values are sent as stored */
  secrets?(store: Store): SecretBox;
  /** Called when an event is given up (after `maxAttempts`, or at once for a permanent failure). */
  onGiveUp(store: Store, delivery: Delivery, error: string): Promise<void>;
  /** Told what a close leaves undelivered in a store that keeps nothing after it (`Store.ephemeral`). */
  warning: TellWarning;
}
