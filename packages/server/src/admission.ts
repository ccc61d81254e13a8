import type { CallOptions, Crawlkit, CreditUsageResponse, ErrorResponse } from 'crawlkit';

import { v2Error } from './respond.js';

/**
 * What the server admits: synchronous requests up to `queueLimit` at once (429 beyond). Its `creditLimit` goes with
 * every call (`CallOptions.creditLimit`): the engine reserves each call's credits in its store before the work
 * starts and answers 402 when they do not fit, so the limit holds under concurrency, across restarts and across
 * processes sharing the store.
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

  /** The credit limit every call carries (`CallOptions.creditLimit`); undefined without one. */
  get creditLimit(): number | undefined {
    return this.#creditLimit;
  }

  /** The credit limit, the credits committed against it (spent and reserved) and what is left; undefined without one. */
  async credits(): Promise<{ limit: number; committed: number; remaining: number } | undefined> {
    if (this.#creditLimit === undefined) return undefined;
    const committed = await this.#crawlkit.credits.committed();
    if (typeof committed !== 'number') throw new Error(committed.error);
    return { limit: this.#creditLimit, committed, remaining: Math.max(0, this.#creditLimit - committed) };
  }

  /**
   * `GET /v2/team/credit-usage`: the engine's count (the caller's tenant's), or under a credit limit the store's
   * (every process on the store, kept across restarts) against the limit.
   */
  async creditUsage(call: CallOptions = {}): Promise<CreditUsageResponse> {
    const usage = this.#crawlkit.getCreditUsage(call);
    const limited = await this.credits();
    if (limited === undefined) return usage;
    const { limit, committed, remaining } = limited;
    return {
      ...usage,
      data: { ...usage.data, creditsUsed: committed, remainingCredits: remaining, planCredits: limit },
    };
  }

  /** Runs `work` as one of the synchronous requests in progress, or answers 429 when `queueLimit` are. */
  async queued<T>(work: () => Promise<T>): Promise<T | ErrorResponse> {
    if (this.#inFlight >= this.#queueLimit) {
      return v2Error(
        'QUEUE_FULL',
        `The server is busy: ${this.#inFlight} scrape, map, search and params-preview requests are in progress ` +
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
