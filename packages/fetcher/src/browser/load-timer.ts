import { clearTimeout, setTimeout } from 'node:timers';
import type { BrowserSlotWait } from '../page.js';
import { slotWaitsMoving } from '../slot-wait.js';
import type { LoadClock } from './load-errors.js';

/**
 * The timer of one browser load's deadline, and the load's wait for one of the browser's pages: counted against the
 * deadline, or, when the caller keeps the clock of that wait (`PageRequest.browserSlot`), told to the caller and added
 * to the deadline, the timer starting once the load has its page.
 */
export class LoadTimer {
  /** The load's times, for the messages of its deadline. */
  readonly clock: LoadClock;
  readonly #deadline: { at: number };
  /** The caller's hooks, moving `#deadline` on by the wait. */
  readonly #slot: BrowserSlotWait | undefined;
  readonly #onDue: () => void;
  #timer: NodeJS.Timeout | undefined;
  /** Whether the caller was told of a wait not ended yet. */
  #waiting = false;

  /**
   * Starts the load's clock. `deadline.at` (`performance.now()`) is moved on by a wait whose clock the caller keeps;
   * `statedMs` is the timeout the caller set and `pagesAtOnce` the browser's pages, which the messages name.
   */
  constructor(
    deadline: { at: number },
    { statedMs, pagesAtOnce, slot }: { statedMs: number; pagesAtOnce: number; slot: BrowserSlotWait | undefined },
    onDue: () => void,
  ) {
    this.clock = { startedAt: Date.now(), statedMs, pagesAtOnce };
    this.#deadline = deadline;
    this.#slot = slot && slotWaitsMoving(slot, deadline);
    this.#onDue = onDue;
    if (!slot) this.#arm();
  }

  /** The load starts waiting for a browser page. */
  waiting(): void {
    if (!this.#slot) return;
    this.#waiting = true;
    this.#slot.waiting();
  }

  /** The load has its browser page. */
  readonly acquired = (): void => {
    if (!this.#slot) {
      this.clock.slotMs = Date.now() - this.clock.startedAt;
      return;
    }
    this.#waiting = false;
    this.#slot.acquired();
    this.clock.startedAt = Date.now();
    this.clock.slotMs = 0;
    this.#arm();
  };

  /** The load ended: the timer is cleared, and a wait cut short (an abort) is told ended. */
  stop(): void {
    clearTimeout(this.#timer);
    if (!this.#waiting) return;
    this.#waiting = false;
    this.#slot!.acquired();
  }

  #arm(): void {
    this.#timer = setTimeout(this.#onDue, Math.max(1, this.#deadline.at - performance.now()));
  }
}
