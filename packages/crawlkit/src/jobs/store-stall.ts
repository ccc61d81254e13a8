import type { JobStoreFault } from '@crawlkit/store';

import { describeStoreFault } from '../store-faults.js';

/**
 * The store fault a job running in this process is stalled on (a full disk, a locked SQLite file), from the first
 * fault met since it last stored a page. It is kept in memory, not in the store that is failing, and read into the
 * job's status (`JobRecord.storeFault`) by this process's status calls.
 */
export class StoreStall {
  #fault: JobStoreFault | undefined;

  /** The fault, while the job is stalled on it. */
  get fault(): JobStoreFault | undefined {
    return this.#fault;
  }

  /** A store fault met by the job's work. */
  met(error: unknown): void {
    const at = Date.now();
    this.#fault = { ...describeStoreFault(error), since: this.#fault?.since ?? at, at };
  }

  /** A page of the job was stored: the stall is over. */
  ended(): void {
    this.#fault = undefined;
  }
}
