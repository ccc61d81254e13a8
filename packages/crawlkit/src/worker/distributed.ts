import { randomUUID } from 'node:crypto';

import type { BackendConnection, CrawlkitBackend, Store } from '@crawlkit/store';

import { Leadership } from './leadership.js';
import { queueingStore } from './queueing-store.js';
import type { TaskWorker } from './task-worker.js';
import type { TellWarning } from '../warning-codes.js';

/** The webhook outbox of the shared store is delivered by one process at a time; another takes over within this. */
const WEBHOOK_LEADER_TTL_MS = 10_000;

/** An engine's side of a distributed backend: the shared store, its workers and the webhook leadership. */
export class Distributed {
  readonly connection: BackendConnection;
  /** The shared store, putting every added task on the work queue. */
  readonly store: Store;
  readonly workers = new Set<TaskWorker>();
  readonly #leadership: Leadership;

  private constructor(connection: BackendConnection, warning: TellWarning) {
    this.connection = connection;
    this.store = queueingStore(connection.store, connection.queue);
    const owner = randomUUID();
    this.#leadership = new Leadership(connection.coordination, 'webhooks', owner, WEBHOOK_LEADER_TTL_MS, warning);
  }

  /** `warning` is the engine's `warning` event, told a lead that could not be let go. */
  static async open(backend: CrawlkitBackend, warning: TellWarning): Promise<Distributed> {
    const distributed = new Distributed(await backend.connect(), warning);
    await distributed.#leadership.start();
    return distributed;
  }

  /**
   * Told when this process starts delivering the shared outbox (it took over from a process that stopped or died):
   * the outbox is looked at then, not at the next idle look up to 5 s later.
   */
  set onWebhookLead(listener: () => void) {
    this.#leadership.onTaken = listener;
  }

  /** The stores whose webhook outbox this process delivers: the shared one only while it leads. */
  webhookStores(stores: Store[]): Store[] {
    return this.#leadership.held ? stores : stores.filter((s) => s !== this.store);
  }

  /**
   * Before a close: stops delivering the shared outbox here, so that the close does not send its backlog (up to the
   * attempt timeout); `close()` lets the lock go and the next process takes the outbox over.
   */
  handOverWebhooks(): void {
    this.#leadership.handOver();
  }

  /**
   * After the close's last delivery: lets the lead go while the store still answers, so that another process takes
   * the outbox over at its next renewal. `close()` came after the store's close: the release failed there, and the
   * others waited for the lock's 10 s to lapse.
   */
  async releaseWebhooks(): Promise<void> {
    await this.#leadership.stop();
  }

  /** The workers taking tasks now across every process, when the backend's queue can tell. */
  async workersAlive(): Promise<number | undefined> {
    return this.connection.queue.consumers?.();
  }

  async closeWorkers(): Promise<void> {
    await Promise.all([...this.workers].map((worker) => worker.close()));
    this.workers.clear();
  }

  async close(): Promise<void> {
    await this.closeWorkers();
    // Let go already by `releaseWebhooks()` in a runtime's close: this resolves with that release.
    await this.#leadership.stop();
    await this.connection.close();
  }
}
