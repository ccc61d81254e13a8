import type { JobRecord } from '@crawlkit/store';

/**
 * A job's tenant is the first key of its stored JSON (`{"tenant":"…","request":…}`, as `JobManager.create` writes
 * it), so that it is read without parsing a request that may hold a batch's whole URL list.
 */
const TENANT_PREFIX = /^\{"tenant":"((?:[^"\\]|\\.)*)"/;

/** The tenant a job was started for, or undefined. */
export function jobTenant(job: Pick<JobRecord, 'request'>): string | undefined {
  const match = TENANT_PREFIX.exec(job.request);
  return match ? (JSON.parse(`"${match[1]}"`) as string) : undefined;
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
