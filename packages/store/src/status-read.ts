import type { JobStatus, JobStatusRead } from './types.js';

/** A `JobStatusRead`, `expiresAt` left out when unset (as on a record). */
export function statusRead(status: JobStatus, expiresAt: number | undefined): JobStatusRead {
  return expiresAt === undefined ? { status } : { status, expiresAt };
}
