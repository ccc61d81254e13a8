import { clearInterval, setInterval } from 'node:timers';
import type { Coordination } from '@crawlkit/store';
import type { TellWarning } from '../warning-codes.js';

/**
 * How often a process tries the lock (or renews it), at most: one that lets it go at its close is followed within
 * this, not at the next third of the TTL (3.3 s for the webhooks' 10 s). One cheap command a second per process.
 */
const TRY_EVERY_MS = 1_000;

/**
 * Holds a named lock for as long as this process lives, renewing it every third of its TTL (every second at most);
 * another process takes over once it is let go (close) or lapses (crash). Used so that one process at a time delivers
 * the shared webhook outbox, in order.
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
  /** The renewal under way, if any: `stop()` waits for it, so that it cannot take the lock again after the release. */
  #renewing: Promise<void> | undefined;
  /** The one release of `stop()`, however many times it is called. */
  #stopped: Promise<void> | undefined;
  readonly #warning: TellWarning | undefined;
  /** Told each time this process takes the lock (it did not hold it at the renewal before). */
  onTaken: (() => void) | undefined;

  /** `warning` is told a release that failed (the engine's `warning` event): `stop()` never throws. */
  constructor(coordination: Coordination, name: string, owner: string, ttlMs: number, warning?: TellWarning) {
    this.#coordination = coordination;
    this.#name = name;
    this.#owner = owner;
    this.#ttlMs = ttlMs;
    this.#warning = warning;
  }

  /** Whether this process held the lock at the last renewal. */
  get held(): boolean {
    return this.#held;
  }

  /** Tries at once, then keeps trying (or renewing) in the background. */
  async start(): Promise<void> {
    await this.#renew();
    this.#timer = setInterval(() => void this.#renew(), Math.max(100, Math.min(TRY_EVERY_MS, this.#ttlMs / 3)));
    this.#timer.unref();
  }

  /** Stops leading here (`held` is false from now on), while keeping the lock until `stop()` lets it go. */
  handOver(): void {
    clearInterval(this.#timer);
    this.#handedOver = true;
    this.#held = false;
  }

  /**
   * Stops leading and lets the lock go, once: a later call (the engine's close after its runtime's) resolves with the
   * first. A release that fails (Redis down) is told as a `LEAD_RELEASE_FAILED` warning; the lock then lapses by its
   * TTL.
   */
  stop(): Promise<void> {
    this.#stopped ??= this.#release();
    return this.#stopped;
  }

  async #release(): Promise<void> {
    this.handOver();
    await this.#renewing;
    if (!this.#owned) return;
    this.#owned = false;
    try {
      await this.#coordination.releaseLock(this.#name, this.#owner);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.#warning?.(
        'LEAD_RELEASE_FAILED',
        `The ${this.#name} lead was not let go (${reason}): another process takes it over once its lock lapses, ` +
          `within ${Math.ceil(this.#ttlMs / 1000)} s.`,
      );
    }
  }

  #renew(): Promise<void> {
    this.#renewing ??= this.#tryLock().finally(() => (this.#renewing = undefined));
    return this.#renewing;
  }

  async #tryLock(): Promise<void> {
    if (this.#stopped) return;
    const before = this.#held;
    this.#owned = await this.#coordination.tryLock(this.#name, this.#owner, this.#ttlMs).catch(() => false);
    this.#held = this.#owned && !this.#handedOver;
    if (this.#held && !before) this.onTaken?.();
  }
}
