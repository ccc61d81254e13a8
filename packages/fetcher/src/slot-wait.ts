import type { BrowserSlotWait } from './page.js';

/**
 * `slot`, moving `deadline.at` (`performance.now()`) on by each wait for a browser page: the wait's clock is the
 * caller's, so a deadline that counts only this work's own time steps over it.
 */
export function slotWaitsMoving(slot: BrowserSlotWait, deadline: { at: number }): BrowserSlotWait {
  let since: number | undefined;
  return {
    waiting: () => {
      since = performance.now();
      slot.waiting();
    },
    acquired: () => {
      if (since !== undefined) deadline.at += performance.now() - since;
      since = undefined;
      slot.acquired();
    },
  };
}
