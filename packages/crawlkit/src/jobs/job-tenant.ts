import type { JobRecord } from '@crawlkit/store';

import { storedJobOf } from '../codec/records.js';

/** The tenant a job was started for (`CallOptions.tenant`), or undefined for the operator's jobs. */
export function jobTenant(job: Pick<JobRecord, 'request'>): string | undefined {
  return storedJobOf(job).tenant;
}

/**
 * Whether a call for `tenant` may see the job: the operator (no tenant) sees every job, a tenant its own and those
 * no tenant started (the operator's, from the CLI or the function API).
 */
export function visibleTo(job: Pick<JobRecord, 'request'>, tenant: string | undefined): boolean {
  if (tenant === undefined) return true;
  const owner = jobTenant(job);
  return owner === undefined || owner === tenant;
}
