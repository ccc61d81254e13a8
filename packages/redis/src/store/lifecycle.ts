import { StoreClosedError } from '@crawlkit/store';

import { storeIoError } from '../errors.js';

/** Open/closed flag of one store; every sub-store method runs through `run`. */
export class Lifecycle {
  #closed = false;

  get closed(): boolean {
    return this.#closed;
  }

  /** Runs `fn` while open; a Redis failure becomes `STORE_IO`, a closed store rejects with `STORE_CLOSED`. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#closed) throw new StoreClosedError();
    try {
      return await fn();
    } catch (error) {
      throw storeIoError(error);
    }
  }

  /** Marks the store closed; false when it already was. */
  close(): boolean {
    if (this.#closed) return false;
    this.#closed = true;
    return true;
  }
}
