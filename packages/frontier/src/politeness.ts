export interface HostPolitenessOptions {
  /** Minimum time between two requests to one host, in ms (the crawl's `delay`). @default 0 */
  delayMs?: number;
  /** Longest back-off after errors or `Retry-After`, in ms. @default 60000 */
  maxBackoffMs?: number;
  /** Longest per-host spacing a site may ask for (robots `Crawl-delay`), in ms. @default 10000 */
  maxHostDelayMs?: number;
}

interface HostState {
  /** Earliest time the next request may start. */
  next: number;
  /** Per-host delay (robots `Crawl-delay`), when larger than the crawl's. */
  delay: number;
  errors: number;
}

/**
 * Per-host pacing: spacing between requests (`delay`, robots `Crawl-delay`), `Retry-After` on 429/503, and
 * exponential back-off after repeated errors. It answers "how long until this host may be hit", so a scheduler can
 * park the URL instead of blocking a worker.
 */
export class HostPoliteness {
  readonly #delay: number;
  readonly #maxBackoff: number;
  readonly #maxHostDelay: number;
  readonly #hosts = new Map<string, HostState>();

  constructor(options: HostPolitenessOptions = {}) {
    this.#delay = options.delayMs ?? 0;
    this.#maxBackoff = options.maxBackoffMs ?? 60_000;
    this.#maxHostDelay = options.maxHostDelayMs ?? 10_000;
  }

  #state(host: string): HostState {
    let state = this.#hosts.get(host);
    if (!state) this.#hosts.set(host, (state = { next: 0, delay: this.#delay, errors: 0 }));
    return state;
  }

  /**
   * Sets a host's own minimum spacing (e.g. robots `Crawl-delay`), capped at `maxHostDelayMs`, kept when larger than
   * the crawl's delay.
   */
  setHostDelay(host: string, delayMs: number): void {
    const state = this.#state(host.toLowerCase());
    state.delay = Math.max(this.#delay, Math.min(delayMs, this.#maxHostDelay));
  }

  /** The spacing between two requests to the URL's host, in ms: the crawl's delay or the host's own when larger. */
  spacing(url: string): number {
    try {
      return this.#hosts.get(new URL(url).host.toLowerCase())?.delay ?? this.#delay;
    } catch {
      return this.#delay;
    }
  }

  /**
   * Milliseconds until the URL's host may be hit. When 0, the slot is taken: the next request to that host waits
   * for the spacing.
   */
  reserve(url: string, now = Date.now()): number {
    let host: string;
    try {
      host = new URL(url).host.toLowerCase();
    } catch {
      return 0;
    }
    const state = this.#state(host);
    if (state.next > now) return state.next - now;
    state.next = now + state.delay;
    return 0;
  }

  /** Keeps the URL's host from being hit for `waitMs` (capped at `maxBackoffMs`), e.g. after a 429 the caller retries. */
  pause(url: string, waitMs: number, now = Date.now()): void {
    let host: string;
    try {
      host = new URL(url).host.toLowerCase();
    } catch {
      return;
    }
    const state = this.#state(host);
    state.next = Math.max(state.next, now + Math.min(waitMs, this.#maxBackoff));
  }

  /** Records a response: 429/503 with `Retry-After` (seconds or date) or errors push the host's next slot back. */
  record(url: string, outcome: { status?: number; retryAfter?: string; error?: boolean }, now = Date.now()): number {
    const host = new URL(url).host.toLowerCase();
    const state = this.#state(host);
    let wait = 0;
    if (outcome.status === 429 || outcome.status === 503) {
      wait = parseRetryAfter(outcome.retryAfter, now) ?? 1000 * 2 ** Math.min(state.errors, 6);
      state.errors++;
    } else if (outcome.error || (outcome.status ?? 0) >= 500) {
      state.errors++;
      wait = state.errors > 1 ? 500 * 2 ** Math.min(state.errors - 1, 7) : 0;
    } else {
      state.errors = 0;
    }
    wait = Math.min(wait, this.#maxBackoff);
    if (wait > 0) state.next = Math.max(state.next, now + wait);
    return wait;
  }
}

/** `Retry-After` as milliseconds from `now` (delta seconds or an HTTP date), undefined when absent or invalid. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
