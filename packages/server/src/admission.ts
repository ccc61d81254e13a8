import type { CallOptions, Crawlkit, CreditUsageResponse, ErrorResponse } from 'crawlkit';

import { v2Error } from './respond.js';
import { storeUnready } from './store-room.js';

/**
 * What the server admits: synchronous requests up to `queueLimit` at once per API key (429 beyond). Its `creditLimit`
 * goes with every call (`CallOptions.creditLimit`): the engine reserves each call's credits in its store, in the
 * key's account (`CallOptions.tenant`), before the work starts and answers 402 when they do not fit, so each key's
 * limit holds under concurrency, across restarts and across processes sharing the store.
 */
export class Admission {
  readonly #crawlkit: Crawlkit;
  readonly #queueLimit: number;
  readonly #creditLimit: number | undefined;
  readonly #readyMinFreeMb: number | undefined;
  /** Synchronous requests in progress, per tenant (undefined: keyless, or keys that share their jobs). */
  readonly #inFlight = new Map<string | undefined, number>();

  constructor(
    crawlkit: Crawlkit,
    queueLimit: number,
    creditLimit: number | undefined,
    /** The room a store must have left (`ServerOptions.readyMinFreeMb`; undefined: its default rule). */
    readyMinFreeMb?: number,
  ) {
    this.#crawlkit = crawlkit;
    this.#queueLimit = queueLimit;
    this.#creditLimit = creditLimit;
    this.#readyMinFreeMb = readyMinFreeMb;
  }

  /**
   * Starts a job (`start`: a crawl, a batch scrape, a schedule's or a monitor's run, over HTTP or MCP) only while the
   * store has the room `/ready` requires (one rule, `storeUnready`: a balancer's probe and the admission agree), else
   * answers 503 `STORE_FULL` without starting it: every page of the job would fail to be stored. A store that does
   * not answer lets `start` run, which answers its own error.
   */
  async withRoom<T>(start: () => Promise<T>): Promise<T | ErrorResponse> {
    const unready = await storeUnready(this.#crawlkit, this.#readyMinFreeMb);
    return unready?.code === 'STORE_FULL' ? unready : start();
  }

  /** The credit limit every call carries (`CallOptions.creditLimit`); undefined without one. */
  get creditLimit(): number | undefined {
    return this.#creditLimit;
  }

  /**
   * `GET /v2/team/credit-usage`: the engine's count, or under a credit limit the store's (every process on the store,
   * kept across restarts) against the limit; the caller's tenant's (an API key's account), or without one everyone's.
   */
  async creditUsage(call: CallOptions = {}): Promise<CreditUsageResponse> {
    const usage = this.#crawlkit.getCreditUsage(call);
    const limit = this.#creditLimit;
    if (limit === undefined) return usage;
    const committed = await this.#crawlkit.credits.committed(call.tenant !== undefined ? { tenant: call.tenant } : {});
    if (typeof committed !== 'number') throw new Error(committed.error);
    const remaining = Math.max(0, limit - committed);
    return {
      ...usage,
      data: { ...usage.data, creditsUsed: committed, remainingCredits: remaining, planCredits: limit },
    };
  }

  /**
   * Runs `work` as one of the synchronous requests in progress of `tenant` (an API key's; none: the server's), or
   * answers 429 when `queueLimit` of them are: each key has its own `queueLimit`, so one key's burst never refuses
   * another key's requests.
   */
  async queued<T>(work: () => Promise<T>, tenant?: string): Promise<T | ErrorResponse> {
    const inFlight = this.#inFlight.get(tenant) ?? 0;
    if (inFlight >= this.#queueLimit) {
      const whose = tenant === undefined ? '' : ' for this API key';
      return v2Error(
        'QUEUE_FULL',
        `The server is busy: ${inFlight} scrape, map, search, parse and params-preview requests are in progress` +
          `${whose} (queueLimit ${this.#queueLimit}${tenant === undefined ? '' : ' per key'}). Retry later.`,
      );
    }
    this.#inFlight.set(tenant, inFlight + 1);
    try {
      return await work();
    } finally {
      const left = (this.#inFlight.get(tenant) ?? 1) - 1;
      if (left > 0) this.#inFlight.set(tenant, left);
      else this.#inFlight.delete(tenant);
    }
  }
}
