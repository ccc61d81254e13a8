/** Records every driver answers, built in one place so that they answer the same shape. */
import type { Delivery, JobStatus, JobStatusRead } from './types.js';

/** A `JobStatusRead`, `expiresAt` left out when unset (as on a record). */
export function statusRead(status: JobStatus, expiresAt: number | undefined, resultSeq: number): JobStatusRead {
  return expiresAt === undefined ? { status, resultSeq } : { status, expiresAt, resultSeq };
}

/** A delivery just enqueued as `seq` of its job: pending, never attempted, `lastError` left out when unset. */
export function newDelivery(input: Omit<Delivery, 'seq' | 'state' | 'attempts'>, seq: number): Delivery {
  const delivery: Delivery = {
    id: input.id,
    jobId: input.jobId,
    seq,
    payload: input.payload,
    state: 'pending',
    attempts: 0,
    nextAttemptAt: input.nextAttemptAt,
  };
  if (input.lastError !== undefined) delivery.lastError = input.lastError;
  return delivery;
}
