import type { Crawlkit, ErrorResponse } from 'crawlkit';

import { v2Error } from './respond.js';

/**
 * What the server admits: synchronous requests up to `queueLimit` at once (429 beyond), and work while the
 * `creditLimit` lasts (402 after).
 */
export class Admission {
  readonly #crawlkit: Crawlkit;
  readonly #queueLimit: number;
  readonly #creditLimit: number | undefined;
  #inFlight = 0;

  constructor(crawlkit: Crawlkit, queueLimit: number, creditLimit: number | undefined) {
    this.#crawlkit = crawlkit;
    this.#queueLimit = queueLimit;
    this.#creditLimit = creditLimit;
  }

  /** Credits left under the limit; undefined without one. */
  remainingCredits(): number | undefined {
    if (this.#creditLimit === undefined) return undefined;
    return Math.max(0, this.#creditLimit - this.#crawlkit.getCreditUsage().data.creditsUsed);
  }

  /** The 402 answer when the credit limit is spent. */
  refuseWithoutCredits(): ErrorResponse | undefined {
    if (this.remainingCredits() !== 0) return undefined;
    return v2Error(
      'INSUFFICIENT_CREDITS',
      `Insufficient credits to perform this request: the server's credit limit (${this.#creditLimit}) is spent. ` +
        'Restart it with a higher --credit-limit, or without one.',
    );
  }

  /** Runs `work` as one of the synchronous requests in progress, or answers 429 when `queueLimit` are. */
  async queued<T>(work: () => Promise<T>): Promise<T | ErrorResponse> {
    if (this.#inFlight >= this.#queueLimit) {
      return v2Error(
        'QUEUE_FULL',
        `The server is busy: ${this.#inFlight} scrape, map and params-preview requests are in progress ` +
          `(queueLimit ${this.#queueLimit}). Retry later.`,
      );
    }
    this.#inFlight++;
    try {
      return await work();
    } finally {
      this.#inFlight--;
    }
  }
}
