import { clearTimeout, setTimeout } from 'node:timers';

import type { ScrapeSlots } from '../scrape-slots.js';
import { SLOT_WAIT_SHARE, slotWaitTimeoutMessage } from './deadline.js';
import type { PageScrapeOutcome } from './types.js';

/** Why a scrape's wait for a slot ended: its share of the `timeout` passed. */
const SLOT_WAIT_OVER = Symbol('slot wait over');

/**
 * Runs a direct scrape in one of the engine's slots with the `timeout` its caller gave covering the call as a whole:
 * it may wait up to two thirds of it for a slot (upstream's share, reference §3.3), past which it is `SCRAPE_TIMEOUT`
 * saying it waited for a slot, and `run` is given the milliseconds it waited, which come off the scrape's time. A
 * call without a `timeout` waits for its slot as long as the calls before it take, then has the engine's whole
 * `timeoutMs`: a script that starts a thousand scrapes at once gets a thousand pages, not timeouts of its own queue.
 * The caller's abort ends the wait at once.
 */
export async function inSlotWithin(
  queue: ScrapeSlots,
  timeoutMs: number | undefined,
  options: { signal?: AbortSignal | undefined; tenant?: string | undefined },
  run: (waitedMs: number) => Promise<PageScrapeOutcome>,
): Promise<PageScrapeOutcome> {
  const { signal } = options;
  if (timeoutMs === undefined)
    return queue.add(() => run(0), { ...(signal ? { signal } : {}), tenant: options.tenant });
  const called = performance.now();
  const wait = new AbortController();
  const onCallerAbort = () => wait.abort(signal!.reason);
  if (signal?.aborted) onCallerAbort();
  else signal?.addEventListener('abort', onCallerAbort, { once: true });
  const timer = setTimeout(() => wait.abort(SLOT_WAIT_OVER), Math.floor(timeoutMs * SLOT_WAIT_SHARE));
  try {
    return await queue.add(
      () => {
        // Past the wait, only the caller's abort stops the scrape: its own deadline takes over.
        clearTimeout(timer);
        return run(performance.now() - called);
      },
      { signal: wait.signal, tenant: options.tenant },
    );
  } catch (error) {
    if (error !== SLOT_WAIT_OVER) throw error;
    const response = {
      success: false as const,
      code: 'SCRAPE_TIMEOUT' as const,
      error: slotWaitTimeoutMessage(timeoutMs, performance.now() - called),
    };
    return { success: false, error: response, status: 408 };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onCallerAbort);
  }
}
