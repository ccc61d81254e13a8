import type { Coordination } from '@crawlkit/store';

/**
 * Holds a named lock for as long as this process lives, renewing it every third of its TTL; another process takes
 * over once it lapses (crash). Used so that one process at a time delivers the shared webhook outbox, in order.
 */
export class Leadership {
  readonly #coordination: Coordination;
  readonly #name: string;
  readonly #owner: string;
  readonly #ttlMs: number;
  #timer: NodeJS.Timeout | undefined;
  #held = false;
  /** Whether the lock was ours at the last renewal (it may still be, after `handOver()`). */
  #owned = false;
  #handedOver = false;
  /** Told each time this process takes the lock (it did not hold it at the renewal before). */
  onTaken: (() => void) | undefined;

  constructor(coordination: Coordination, name: string, owner: string, ttlMs: number) {
    this.#coordination = coordination;
    this.#name = name;
    this.#owner = owner;
    this.#ttlMs = ttlMs;
  }

  /** Whether this process held the lock at the last renewal. */
  get held(): boolean {
    return this.#held;
  }

  /** Tries at once, then keeps trying (or renewing) in the background. */
  async start(): Promise<void> {
    await this.#renew();
    this.#timer = setInterval(() => void this.#renew(), Math.max(100, Math.floor(this.#ttlMs / 3)));
    this.#timer.unref();
  }

  /** Stops leading here (`held` is false from now on), while keeping the lock until `stop()` lets it go. */
  handOver(): void {
    clearInterval(this.#timer);
    this.#handedOver = true;
    this.#held = false;
  }

  async stop(): Promise<void> {
    this.handOver();
    if (this.#owned) await this.#coordination.releaseLock(this.#name, this.#owner).catch(() => undefined);
    this.#owned = false;
  }

  async #renew(): Promise<void> {
    const before = this.#held;
    this.#owned = await this.#coordination.tryLock(this.#name, this.#owner, this.#ttlMs).catch(() => false);
    this.#held = this.#owned && !this.#handedOver;
    if (this.#held && !before) this.onTaken?.();
  }
}
