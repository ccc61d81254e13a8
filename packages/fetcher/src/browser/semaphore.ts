interface Waiter {
  resolve: () => void;
  reject: (reason: unknown) => void;
}

/** A counting semaphore whose waiters can give up through an `AbortSignal`. */
export class Semaphore {
  #free: number;
  readonly #waiters: Waiter[] = [];

  constructor(size: number) {
    this.#free = size;
  }

  /** Waiters queued behind the busy permits. */
  get pending(): number {
    return this.#waiters.length;
  }

  /** Resolves with a permit; rejects with `signal.reason` when it aborts first. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, reject };
      if (signal) {
        signal.addEventListener(
          'abort',
          () => {
            const index = this.#waiters.indexOf(waiter);
            if (index >= 0) this.#waiters.splice(index, 1);
            reject(signal.reason as Error);
          },
          { once: true },
        );
      }
      this.#waiters.push(waiter);
    });
  }

  release(): void {
    const next = this.#waiters.shift();
    if (next) next.resolve();
    else this.#free++;
  }

  /** Rejects every waiter (on close). */
  rejectAll(reason: unknown): void {
    for (const waiter of this.#waiters.splice(0)) waiter.reject(reason);
  }
}
