import { createHmac } from 'node:crypto';

import type { Delivery, Store } from '@crawlkit/cache';

import type { StoredDelivery } from './payload.js';

/** Sends one HTTP POST; resolves with the status code, rejects on network errors. */
export type PostJson = (
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
) => Promise<number>;

export interface DispatcherOptions {
  post: PostJson;
  secret?: string;
  timeoutMs: number;
  maxAttempts: number;
  /** Called when an event is given up after `maxAttempts`. */
  onGiveUp(store: Store, delivery: Delivery, error: string): Promise<void>;
  /** First retry delay; doubles per attempt. @default 1000 */
  baseDelayMs?: number;
}

const TICK_MS = 250;
const BATCH = 32;

/**
 * Delivers the webhook outbox of one or more stores: in order per job, with a timeout, exponential back-off on
 * network errors and 5xx, and a give-up count. Runs beside scraping and never blocks it; pending deliveries are in
 * the store, so they survive a restart.
 */
export class WebhookDispatcher {
  readonly #stores: () => Store[];
  readonly #options: DispatcherOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #closed = false;
  #again = false;

  constructor(stores: () => Store[], options: DispatcherOptions) {
    this.#stores = stores;
    this.#options = options;
  }

  /** Asks for a delivery round soon (after new events were queued). */
  kick(): void {
    if (this.#closed) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#schedule(0);
  }

  /** Resolves when nothing is pending or being sent (tests, shutdown). */
  async drain(timeoutMs = 30_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      await this.#running;
      let pending = 0;
      for (const store of this.#stores()) pending += (await store.deliveries.pending()).length;
      if (pending === 0) return;
      this.kick();
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#running;
  }

  #schedule(ms: number): void {
    if (this.#timer || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#running = this.#round().finally(() => {
        this.#running = undefined;
      });
    }, ms);
    this.#timer.unref();
  }

  async #round(): Promise<void> {
    let next = Number.POSITIVE_INFINITY;
    for (const store of this.#stores()) {
      const due = await store.deliveries.due(Date.now(), BATCH);
      await Promise.all(due.map((d) => this.#send(store, d)));
      for (const pending of await store.deliveries.pending()) next = Math.min(next, pending.nextAttemptAt);
    }
    if (this.#closed) return;
    if (this.#again) {
      this.#again = false;
      this.#schedule(0);
    } else if (Number.isFinite(next)) {
      this.#schedule(Math.max(TICK_MS / 5, Math.min(next - Date.now(), 5_000)));
    }
  }

  async #send(store: Store, delivery: Delivery): Promise<void> {
    const stored = JSON.parse(delivery.payload) as StoredDelivery;
    const body = JSON.stringify(stored.body);
    const headers: Record<string, string> = { 'content-type': 'application/json', ...stored.headers };
    if (this.#options.secret) {
      headers['x-firecrawl-signature'] =
        `sha256=${createHmac('sha256', this.#options.secret).update(body).digest('hex')}`;
    }
    let error: string | undefined;
    try {
      const status = await this.#options.post(stored.url, body, headers, this.#options.timeoutMs);
      if (status >= 200 && status < 300) {
        await store.deliveries.update(delivery.id, { state: 'delivered', attempts: delivery.attempts + 1 });
        return;
      }
      error = `the webhook answered HTTP ${status}`;
      if (status < 500 && status !== 408 && status !== 429) {
        // A client error will not get better by retrying.
        await this.#giveUp(store, delivery, error);
        return;
      }
    } catch (cause) {
      error = cause instanceof Error ? cause.message : String(cause);
    }
    const attempts = delivery.attempts + 1;
    if (attempts >= this.#options.maxAttempts) {
      await this.#giveUp(store, { ...delivery, attempts }, error);
      return;
    }
    const delay = (this.#options.baseDelayMs ?? 1000) * 2 ** (attempts - 1);
    await store.deliveries.update(delivery.id, { attempts, nextAttemptAt: Date.now() + delay, lastError: error });
  }

  async #giveUp(store: Store, delivery: Delivery, error: string): Promise<void> {
    await store.deliveries.update(delivery.id, { state: 'failed', attempts: delivery.attempts + 1, lastError: error });
    await this.#options.onGiveUp(store, delivery, error);
  }
}
