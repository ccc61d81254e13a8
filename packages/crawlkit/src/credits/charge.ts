import type { Store } from '@crawlkit/store';

import { CrawlkitError } from '../errors.js';
import type { TellWarning } from '../warning-codes.js';
import { creditLedger } from './ledger.js';

/** The `creditLimit` of a call's options: undefined without one, `BAD_REQUEST` when it is not a number ≥ 0. */
export function creditLimitOf(init: unknown): number | undefined {
  const limit = (init as { creditLimit?: unknown } | null | undefined)?.creditLimit;
  if (limit === undefined) return undefined;
  if (typeof limit !== 'number' || !Number.isFinite(limit) || limit < 0) {
    throw new CrawlkitError('BAD_REQUEST', '`creditLimit` must be a number of credits, 0 or more.');
  }
  return limit;
}

/** Whose credits a call spends (its tenant's account) and under which limit. */
export interface CallCredits {
  creditLimit?: number | undefined;
  tenant?: string | undefined;
}

/** The credit limit (checked, as `creditLimitOf`) and the tenant of a call's options. */
export function callOf(init: unknown): { creditLimit: number | undefined; tenant: string | undefined } {
  const tenant = (init as { tenant?: unknown } | null | undefined)?.tenant;
  return { creditLimit: creditLimitOf(init), tenant: typeof tenant === 'string' ? tenant : undefined };
}

/**
 * Runs `work` with `estimate` credits reserved under the call's `creditLimit` in its tenant's account of the store's
 * ledger, then settles them to what it cost (`cost(result)`; nothing when it threw). Without a limit it only runs
 * `work`. Rejects with `INSUFFICIENT_CREDITS`, before `work` starts, when the estimate does not fit. A settlement the
 * store refuses (its lock held by another process, a full disk) loses nothing of the work: its result (or its own
 * error) is answered, and the reservation stays counted as it was, told as a `CREDITS_NOT_SETTLED` warning: the
 * limit may be reached early, never passed, as after a process killed mid-work.
 */
export async function charged<T>(
  store: Store,
  call: CallCredits,
  estimate: number,
  work: () => Promise<T>,
  cost: (result: T) => number,
  warn: TellWarning,
): Promise<T> {
  if (call.creditLimit === undefined) return work();
  const reservation = await creditLedger(store, call.tenant).require(estimate, call.creditLimit);
  const settle = (actual: number) =>
    reservation.settle(actual).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      warn(
        'CREDITS_NOT_SETTLED',
        `The ${estimate} credits reserved for a call stay counted: settling them to ${actual} failed (${reason}).`,
      );
    });
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await settle(0);
    throw error;
  }
  await settle(cost(result));
  return result;
}
