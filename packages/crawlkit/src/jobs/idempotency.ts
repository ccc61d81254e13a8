import { createHash } from 'node:crypto';

import { isStoreError } from '@crawlkit/store';

import { CrawlkitError } from '../errors.js';

/** Longest `x-idempotency-key` accepted. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 256;

/**
 * The id of the job a start with idempotency `key` creates: a UUID (version 8, RFC 9562) hashed from the key and the
 * caller's `tenant`. The store's unique job id is then the key's lock: a second start with the key by the same
 * tenant finds the job, or collides in `jobs.create`, in every process sharing the store and after a restart, for as
 * long as the job is kept. Each tenant has its own keys: another's use of `nightly` neither refuses nor reveals its
 * own.
 */
export function idempotentJobId(key: string, tenant?: string): string {
  // Without a tenant, the id of the key alone (as before tenants were hashed in: ids kept across an upgrade).
  const scoped = tenant === undefined ? key : `${tenant}\n${key}`;
  const hex = createHash('sha256').update(`crawlkit-idempotency:${scoped}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Throws `BAD_REQUEST` for an empty or oversized key. */
export function checkIdempotencyKey(key: string): void {
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new CrawlkitError(
      'BAD_REQUEST',
      `Invalid idempotency key: use 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters (a UUID is a good key).`,
    );
  }
}

export function keyReusedError(): CrawlkitError {
  return new CrawlkitError('IDEMPOTENCY_KEY_REUSED', 'Idempotency key already used');
}

/** Whether `error` is the store refusing a second job with the same id. */
export function isDuplicateJob(error: unknown): boolean {
  return isStoreError(error) && error.code === 'STORE_JOB_EXISTS';
}
