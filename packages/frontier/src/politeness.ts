import { asksRetryLater } from '@crawlkit/options/retry-later';

export interface HostPolitenessOptions {
  /** Minimum time between two requests to one host, in ms (the crawl's `delay`). @default 0 */
  delayMs?: number;
  /** Longest rest `pause` imposes on a host, in ms. @default 60000 */
  maxBackoffMs?: number;
  /** Longest per-host spacing a site may ask for (robots `Crawl-delay`), in ms. @default 10000 */
  maxHostDelayMs?: number;
}

interface HostState {
  /** Earliest time the next request may start. */
  next: number;
  /** Per-host delay (robots `Crawl-delay`), when larger than the crawl's. */
  delay: number;
  /** When the host's latest rest (`pause`) ends; spacing does not move it. */
  restUntil: number;
}

/**
 * Per-host pacing: spacing between requests (`delay`, robots `Crawl-delay`) and rests (`pause`, after a 429/503 with
 * the wait `retryDelay` gives). It answers "how long until this host may be hit", so a scheduler can park the URL
 * instead of blocking a worker.
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
    if (!state) this.#hosts.set(host, (state = { next: 0, delay: this.#delay, restUntil: 0 }));
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
    const state = this.#hostState(url);
    if (!state) return 0;
    if (state.next > now) return state.next - now;
    state.next = now + state.delay;
    return 0;
  }

  /**
   * Keeps the URL's host from being hit for `waitMs` (capped at `maxBackoffMs`), e.g. after a 429 the caller retries.
   */
  pause(url: string, waitMs: number, now = Date.now()): void {
    const state = this.#hostState(url);
    if (!state) return;
    const until = now + Math.min(waitMs, this.#maxBackoff);
    state.next = Math.max(state.next, until);
    state.restUntil = Math.max(state.restUntil, until);
  }

  /**
   * A request to the URL's host leaves now, its slot taken earlier: the host's spacing counts again from now (a
   * request held up between its slot and its departure does not shorten the gap the server sees).
   */
  sent(url: string, now = Date.now()): void {
    const state = this.#hostState(url);
    if (state) state.next = Math.max(state.next, now + state.delay);
  }

  /**
   * Milliseconds left of the rest (`pause`) the URL's host is in, 0 when none: a request whose slot was taken before
   * the rest began (a 429 that came meanwhile) is held back, not sent into it. Spacing is no rest.
   */
  restingFor(url: string, now = Date.now()): number {
    const state = this.#hostState(url, false);
    return state && state.restUntil > now ? state.restUntil - now : 0;
  }

  /** The URL's host's state (made when `create`), undefined for a URL that does not parse. */
  #hostState(url: string, create = true): HostState | undefined {
    let host: string;
    try {
      host = new URL(url).host.toLowerCase();
    } catch {
      return undefined;
    }
    return create ? this.#state(host) : this.#hosts.get(host);
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

/** Times a refused page (or one whose connection dropped) is fetched again before its answer is kept as it is. */
const MAX_RETRIES = 3;
/** Longest wait a `Retry-After` may impose, in ms. */
const MAX_RETRY_AFTER_MS = 60_000;
/** Longest back-off without `Retry-After`, in ms. */
const MAX_BACKOFF_MS = 30_000;

/**
 * What a page's fetch gave that may be retried: an answer (`status`, its `Retry-After`), or no answer because the
 * server dropped the connection (`dropped`: reset or closed before a complete response).
 */
export type RetriedFetch = { status: number; retryAfter?: string | undefined } | { dropped: true };

/** Whether a page that answered `status` (or whose connection dropped) is fetched again after its `retries`. */
export function isRetried(fetch: number | { dropped: true }, retries: number): boolean {
  return (typeof fetch === 'number' ? asksRetryLater(fetch) : fetch.dropped) && retries < MAX_RETRIES;
}

/**
 * How long to wait before fetching a page again, in ms, or undefined when it is not retried. A page is retried when
 * it answered 429/503 or its connection dropped, and it has not had its `MAX_RETRIES` (one count for both: `retries`
 * counts the retries it had so far, whatever their reason). A 429/503's `Retry-After` wins (capped at 60 s); without
 * it the back-off doubles per retry (1–2 s, 2–4 s, 4–8 s, ... up to 30 s), half fixed and half random, so that pages
 * refused together do not come back together.
 */
export function retryDelay(
  fetch: RetriedFetch,
  retries: number,
  random: () => number = Math.random,
  now = Date.now(),
): number | undefined {
  const dropped = 'dropped' in fetch;
  if (!isRetried(dropped ? fetch : fetch.status, retries)) return undefined;
  const asked = dropped ? undefined : parseRetryAfter(fetch.retryAfter, now);
  if (asked !== undefined) return Math.min(asked, MAX_RETRY_AFTER_MS);
  const base = Math.min(1000 * 2 ** (retries + 1), MAX_BACKOFF_MS);
  return base / 2 + random() * (base / 2);
}
