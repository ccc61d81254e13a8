import type { Delivery, Store } from '@crawlkit/store';

import { isStoreFault, storeFaultDelay } from '../store-faults.js';

/** The fields of a delivery the dispatcher writes after an attempt. */
export type DeliveryPatch = Partial<Pick<Delivery, 'state' | 'attempts' | 'nextAttemptAt' | 'lastError'>>;

interface Unrecorded {
  patch: DeliveryPatch;
  /** When to try the write again, for a settled delivery (a pending one waits for its `nextAttemptAt`). */
  writeAt: number;
  /** Writes refused in a row. */
  faults: number;
  /** Runs once its `failed` state is written (the job error of a given-up event). */
  afterWrite?: () => Promise<void>;
}

/**
 * What the dispatcher knows of deliveries whose new state the store refused to write (a full disk, Redis down): their
 * attempts and next try, or that they were delivered or given up. It overlays the outbox, so that an event is neither
 * sent again nor has its attempts and back-off forgotten while the write fails, and its state is written again until
 * the store takes it. Before, each refused write left the event due at once: one event was re-sent 33,519 times in
 * 138 s (issue 38). One entry per job at most (a job's next event waits for this one), so it stays small.
 */
export class UnrecordedDeliveries {
  readonly #entries = new Map<string, Unrecorded>();

  /** The delivery as this process knows it: the outbox's record with the unwritten patch over it. */
  view(delivery: Delivery): Delivery {
    const entry = this.#entries.get(delivery.id);
    if (!entry) return delivery;
    const view: Delivery = { ...delivery, ...entry.patch };
    view.attempts = Math.max(delivery.attempts, entry.patch.attempts ?? 0);
    return view;
  }

  /** Whether the delivery was settled (delivered or given up) here, with only its state left to write. */
  settled(delivery: Delivery): boolean {
    const state = this.#entries.get(delivery.id)?.patch.state;
    return state === 'delivered' || state === 'failed';
  }

  /** When the delivery is due here: its next attempt, or the next try of its write; undefined when not known. */
  dueAt(delivery: Delivery): number {
    const entry = this.#entries.get(delivery.id);
    if (!entry) return delivery.nextAttemptAt;
    return this.settled(delivery) ? entry.writeAt : Math.max(delivery.nextAttemptAt, entry.patch.nextAttemptAt ?? 0);
  }

  /**
   * Writes `patch` to the outbox; on a store fault keeps it here instead and resolves false. `afterWrite` runs once
   * the patch is written (now or on a later try). Other errors reject.
   */
  async write(store: Store, id: string, patch: DeliveryPatch, afterWrite?: () => Promise<void>): Promise<boolean> {
    try {
      await store.deliveries.update(id, patch);
    } catch (error) {
      if (!isStoreFault(error)) throw error;
      const faults = (this.#entries.get(id)?.faults ?? 0) + 1;
      this.#entries.set(id, {
        patch,
        writeAt: Date.now() + storeFaultDelay(faults),
        faults,
        ...(afterWrite ? { afterWrite } : {}),
      });
      return false;
    }
    this.#entries.delete(id);
    await afterWrite?.();
    return true;
  }

  /** Writes again the state of a delivery settled here. Resolves true once written. */
  retry(store: Store, id: string): Promise<boolean> {
    const entry = this.#entries.get(id);
    if (!entry) return Promise.resolve(true);
    return this.write(store, id, entry.patch, entry.afterWrite);
  }
}
