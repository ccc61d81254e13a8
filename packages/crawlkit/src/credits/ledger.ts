import { withinBounds, type CounterBounds, type CounterStore, type Store } from '@crawlkit/store';

import { CrawlkitError } from '../errors.js';

/** The counter of credits committed against credit limits: spent, plus reserved by work under way; every tenant's. */
const COMMITTED = 'credits';

/** Credits taken from a ledger before some work; `settle` says what the work cost (once). */
export interface CreditReservation {
  readonly amount: number;
  /** Replaces the reservation by what the work cost (0 when it failed or never ran). Later calls do nothing. */
  settle(actual: number): Promise<void>;
}

/**
 * Credits committed against a `creditLimit` (an HTTP server's `--credit-limit`), kept in the engine's store: shared
 * by every process using it and kept across restarts. Work reserves its credits before it starts, atomically
 * (`CounterStore.add` with the limit as its bound), so concurrent calls can never together pass the limit; when it
 * ends, the reservation is replaced by what it cost. A process killed mid-work leaves its reservation counted: the
 * limit may be reached early, never passed. A tenant (`CallOptions.tenant`, an API key's) has an account of its own,
 * `credits:<tenant>`, held to the limit alone; its credits also count in the total (`credits`), which holds the
 * calls without a tenant to the limit, and is what the operator sees.
 */
export class CreditLedger {
  readonly #counters: CounterStore;
  readonly #account: string;
  readonly #tenant: string | undefined;

  constructor(counters: CounterStore, tenant?: string) {
    this.#counters = counters;
    this.#tenant = tenant;
    this.#account = tenant === undefined ? COMMITTED : `${COMMITTED}:${tenant}`;
  }

  /** Credits spent and reserved so far: the tenant's, or without one everyone's. */
  committed(): Promise<number> {
    return this.#counters.get(this.#account);
  }

  /** Reserves `amount` credits when they fit under `limit`; undefined when they do not. */
  async reserve(amount: number, limit: number): Promise<CreditReservation | undefined> {
    if ((await this.#counters.add(this.#account, amount, { max: limit })) === undefined) return undefined;
    try {
      await this.#total(amount);
    } catch (error) {
      await this.#counters.add(this.#account, -amount).catch(() => undefined);
      throw error;
    }
    let settled = false;
    return {
      amount,
      settle: async (actual) => {
        if (settled) return;
        settled = true;
        if (actual === amount) return;
        await this.#counters.add(this.#account, actual - amount);
        await this.#total(actual - amount);
      },
    };
  }

  /** Reserves `amount` credits under `limit`, or throws `INSUFFICIENT_CREDITS` saying what is left. */
  async require(amount: number, limit: number): Promise<CreditReservation> {
    const reservation = await this.reserve(amount, limit);
    if (reservation) return reservation;
    throw insufficientCredits(limit, await this.committed(), amount);
  }

  /** A tenant's credits count in the total too, unbounded there (the tenant's own account holds it to the limit). */
  async #total(delta: number): Promise<void> {
    if (this.#tenant !== undefined) await this.#counters.add(COMMITTED, delta);
  }
}

/** The v2 402 answer, with what is left and what was needed. */
export function insufficientCredits(limit: number, committed: number, needed: number): CrawlkitError {
  const left = Math.max(0, limit - committed);
  return new CrawlkitError(
    'INSUFFICIENT_CREDITS',
    `Insufficient credits to perform this request: ${left} of the credit limit ${limit} left, and it needs ` +
      `${needed}. Raise the limit (--credit-limit), or lower the request's limit or number of URLs.`,
  );
}

/** Counters of a store that has none: kept in this process only (a custom store without `counters`). */
function processCounters(): CounterStore {
  const values = new Map<string, number>();
  return {
    get: (name) => Promise.resolve(values.get(name) ?? 0),
    add: (name, delta, bounds?: CounterBounds) => {
      const value = (values.get(name) ?? 0) + delta;
      if (!withinBounds(value, bounds)) return Promise.resolve(undefined);
      values.set(name, value);
      return Promise.resolve(value);
    },
  };
}

const counters = new WeakMap<Store, CounterStore>();

/** The credit ledger of an engine's store, for `tenant`'s account (none: the total, the operator's). */
export function creditLedger(store: Store, tenant?: string): CreditLedger {
  let found = counters.get(store);
  if (!found) counters.set(store, (found = store.counters ?? processCounters()));
  return new CreditLedger(found, tenant);
}

/**
 * How many pages of `perPage` credits a job may plan under `limit`: at most `wanted`, at least 1, else
 * `INSUFFICIENT_CREDITS`. The job's pages reserve their credits one by one as they run; this only sizes it.
 */
export async function pagesWithinCredits(
  ledger: CreditLedger,
  limit: number,
  perPage: number,
  wanted: number,
): Promise<number> {
  const committed = await ledger.committed();
  const pages = Math.floor((limit - committed) / perPage);
  if (pages < 1) throw insufficientCredits(limit, committed, perPage);
  return Math.min(pages, wanted);
}

/** Throws `INSUFFICIENT_CREDITS` unless `amount` credits are left under `limit` (a batch's URLs, before it starts). */
export async function assertCreditsLeft(ledger: CreditLedger, limit: number, amount: number): Promise<void> {
  const committed = await ledger.committed();
  if (committed + amount > limit) throw insufficientCredits(limit, committed, amount);
}
