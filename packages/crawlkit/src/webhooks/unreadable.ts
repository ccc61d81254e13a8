import type { Delivery, Store } from '@crawlkit/store';

import { deliveryCodec } from '../codec/records.js';
import { isCrawlkitError } from '../errors.js';
import type { StoredDelivery } from './payload.js';
import type { TellWarning } from '../warning-codes.js';

/**
 * Webhook events whose record this crawlkit cannot read: written by a newer crawlkit (a roll-back, or an older process
 * beside a newer one on the store), or damaged. They stay pending, unsent, for a crawlkit that reads them; their job
 * waits behind its first one (its events go in order). The first found in a store is told once, counting all of the
 * store's: before, they were skipped without a word.
 */
export class UnreadableEvents {
  readonly #warning: TellWarning;
  /** Jobs whose next event cannot be read here: no process of this build sends them. */
  readonly #jobs = new Set<string>();
  readonly #told = new WeakSet<Store>();

  constructor(warning: TellWarning) {
    this.#warning = warning;
  }

  /** Whether the job's next event was found unreadable here. */
  has(jobId: string): boolean {
    return this.#jobs.has(jobId);
  }

  /** The record of `delivery`, or undefined when it cannot be read here (the job is then left, and it is told). */
  decode(store: Store, delivery: Delivery): StoredDelivery | undefined {
    try {
      return deliveryCodec.decode(delivery.payload);
    } catch (error) {
      if (!isCrawlkitError(error) || error.code !== 'STORE_RECORD_INVALID') throw error;
      this.#jobs.add(delivery.jobId);
      if (!this.#told.has(store)) {
        this.#told.add(store);
        void this.#tell(store, error.message).catch(() => undefined);
      }
      return undefined;
    }
  }

  async #tell(store: Store, first: string): Promise<void> {
    const unreadable = (await store.deliveries.pending()).filter((delivery) => !readable(delivery.payload));
    const jobs = [...new Set(unreadable.map((delivery) => delivery.jobId))];
    const named = jobs.slice(0, 5).join(', ') + (jobs.length > 5 ? ` and ${jobs.length - 5} more` : '');
    const events = `${unreadable.length} webhook ${unreadable.length === 1 ? 'event' : 'events'}`;
    this.#warning(
      'WEBHOOK_EVENTS_UNREADABLE',
      `${events} of ${jobs.length === 1 ? 'job' : 'jobs'} ${named} cannot be read by this crawlkit and stay ` +
        `pending, unsent, for one that reads them. ${first}`,
    );
  }
}

function readable(payload: string): boolean {
  try {
    deliveryCodec.decode(payload);
    return true;
  } catch {
    return false;
  }
}
