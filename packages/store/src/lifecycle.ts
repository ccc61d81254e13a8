import { StoreClosedError, toError } from './errors.js';

/** Shared open/closed flag of one store instance; every sub-store checks it first. */
export class Lifecycle {
  #closed = false;

  get closed(): boolean {
    return this.#closed;
  }

  /** Throws `StoreClosedError` once the store is closed. */
  assertOpen(): void {
    if (this.#closed) throw new StoreClosedError();
  }

  /**
   * Runs `fn` if the store is open and hands its result (or its throw) back as a promise, so that store methods
   * reject instead of throwing synchronously.
   */
  run<T>(fn: () => T): Promise<T> {
    try {
      this.assertOpen();
      return Promise.resolve(fn());
    } catch (error) {
      return Promise.reject(toError(error));
    }
  }

  /** Marks the store closed; returns false when it already was. */
  close(): boolean {
    if (this.#closed) return false;
    this.#closed = true;
    return true;
  }
}
