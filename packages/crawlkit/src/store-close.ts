import { withinBudget } from '@crawlkit/options/within-budget';
import type { PageCache } from '@crawlkit/store';

import { LATE_WRITE_GRACE_MS } from './scrape/late-cache-writes.js';
import type { TellWarning } from './warning-codes.js';

/**
 * How long `close()` waits for a store given in `store` to close, in milliseconds: the grace its late cache writes
 * get. A store of the user's whose network peer stopped answering would otherwise hold `close()` for ever.
 */
export const STORE_CLOSE_GRACE_MS = LATE_WRITE_GRACE_MS;

/**
 * Closes a store given in the `store` option, waiting `graceMs` at most: one whose `close()` has not settled by then
 * (or rejects) is left to it, told by a `STORE_CLOSE_FAILED` warning, and the engine's `close()` goes on.
 */
export async function closeGivenStore(
  store: PageCache,
  warn: TellWarning,
  graceMs = STORE_CLOSE_GRACE_MS,
): Promise<void> {
  const closing = Promise.resolve()
    .then(() => store.close())
    .then(
      () => true,
      (error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        warn('STORE_CLOSE_FAILED', `The store given to crawlkit (${store.kind}) failed to close: ${reason}`);
        return true;
      },
    );
  const closed = await withinBudget(closing, graceMs, () => false);
  if (!closed) {
    warn(
      'STORE_CLOSE_FAILED',
      `The store given to crawlkit (${store.kind}) had not closed after ${graceMs} ms: close() went on without it ` +
        '(a network store that stopped answering?); whatever it holds open may keep the process alive.',
    );
  }
}
