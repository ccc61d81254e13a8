/** The webhook outbox: each job's events, delivered in order, retried with back-off. */

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  /** Unique id; also the `webhookId` of the payload. */
  id: string;
  jobId: string;
  /** Order of the event within its job; deliveries of one job are sent in this order. */
  seq: number;
  /** Serialised delivery: target, headers, body. */
  payload: string;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: number;
  lastError?: string;
}

export interface DeliveryStore {
  /**
   * Appends an event for the job; `seq` is assigned by the store (next in the job), `state` is `pending` and
   * `attempts` 0. Rejects with `JobNotFoundError` for an unknown job and `DeliveryExistsError` for a known id.
   */
  enqueue(delivery: Omit<Delivery, 'seq' | 'state' | 'attempts'>): Promise<Delivery>;
  /** For each job, its lowest-`seq` pending delivery when due (`nextAttemptAt <= now`); at most `limit`. */
  due(now: number, limit: number): Promise<Delivery[]>;
  /**
   * Shallow update of the given fields (an `undefined` `lastError` clears it). A delivery settled (`delivered` or
   * `failed`) drops its payload, never read again; its id (a queued id stays refused) and `seq` stay until its job
   * goes. No-op for an unknown id.
   */
  update(
    id: string,
    patch: Partial<Pick<Delivery, 'state' | 'attempts' | 'nextAttemptAt' | 'lastError'>>,
  ): Promise<void>;
  /** Pending deliveries of a job (or of all jobs), by job then `seq`. */
  pending(jobId?: string): Promise<Delivery[]>;
}
