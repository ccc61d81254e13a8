import { withinBudget } from '@crawlkit/options/within-budget';
import { StoreClosedError } from '@crawlkit/store';

import { redisFailure, STILL_DOWN } from '../errors.js';

/**
 * Time a command may take while Redis is known not to answer (its last command timed out and none has succeeded
 * since), in milliseconds: a call during an outage fails this fast instead of waiting the whole command timeout, and
 * the first command that succeeds ends the outage.
 */
const OUTAGE_FUSE_MS = 1_000;

/** Open/closed flag and availability of one store; every sub-store method runs through `run`. */
export class Lifecycle {
  #closed = false;
  #unavailable = false;
  readonly #commandTimeoutMs: number | undefined;

  /** `commandTimeoutMs`: the client's command timeout, named in `REDIS_UNAVAILABLE` messages. */
  constructor(commandTimeoutMs?: number) {
    this.#commandTimeoutMs = commandTimeoutMs;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Whether the last command met a Redis that did not answer (and none has succeeded since). */
  get unavailable(): boolean {
    return this.#unavailable;
  }

  /**
   * Runs `fn` while open; a Redis that does not answer becomes `REDIS_UNAVAILABLE`, another failure `STORE_IO`, and
   * a closed store rejects with `STORE_CLOSED`.
   */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#closed) throw new StoreClosedError();
    try {
      const result = await (this.#unavailable ? withFuse(fn(), OUTAGE_FUSE_MS) : fn());
      this.#unavailable = false;
      return result;
    } catch (error) {
      const failure = redisFailure(error, this.#commandTimeoutMs);
      if (failure.code === 'REDIS_UNAVAILABLE') this.#unavailable = true;
      throw failure;
    }
  }

  /** Marks the store closed; false when it already was. */
  close(): boolean {
    if (this.#closed) return false;
    this.#closed = true;
    return true;
  }
}

/** `work`, or a "Command timed out" rejection after `ms` (the command itself goes on in the client). */
function withFuse<T>(work: Promise<T>, ms: number): Promise<T> {
  return withinBudget(work, ms, () => {
    throw new Error(STILL_DOWN);
  });
}
