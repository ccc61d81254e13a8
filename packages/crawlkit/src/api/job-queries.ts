import { redactUrl } from '@crawlkit/fetcher';
import type { JobKind } from '@crawlkit/store';

import { INVALID_JOB_ID, parseJobReference } from '../jobs/job-address.js';
import type { JobManager } from '../jobs/job-manager.js';
import { visibleTo } from '../jobs/job-tenant.js';
import { hideJobSecrets } from '../jobs/job-secrets.js';
import { buildJobErrors, buildJobStatus, type StatusQuery } from '../jobs/status.js';
import { paginationSchema, type CrawlRequest } from '../v2/jobs.js';
import { parseBody } from '../v2/parse.js';
import type {
  ActiveCrawlsResponse,
  CancelResponse,
  CrawlErrorsResponse,
  ErrorResponse,
  JobStatusResponse,
} from '../v2/types.js';
import { storedJobOf } from '../codec/records.js';
import type { WaitOptions } from '../call-options.js';

/** Pagination of a status call: `skip` and `limit` (page size, default 100). */
export interface StatusPagination {
  skip?: number;
  limit?: number;
}

export const notFound = (): ErrorResponse => ({ success: false, code: 'JOB_NOT_FOUND', error: 'Job not found' });
export const invalidId = (): ErrorResponse => ({ success: false, code: 'BAD_REQUEST', error: INVALID_JOB_ID });

/** The job of `id` when it is of `kind` and `tenant` may see it (`CallOptions.tenant`). */
async function findJob(jobs: JobManager, kind: JobKind | undefined, id: string, tenant: string | undefined) {
  const found = await jobs.find(id);
  if (!found || (kind !== undefined && found.job.kind !== kind) || !visibleTo(found.job, tenant)) return undefined;
  return found;
}

/** Whether the job exists and `tenant` may see it. */
export async function jobVisible(jobs: JobManager, id: string, tenant: string | undefined): Promise<boolean> {
  return (await findJob(jobs, undefined, id, tenant)) !== undefined;
}

/** Status of a job by id or by a status address (a `next` value is accepted as given). */
export async function getJobStatus(
  jobs: JobManager,
  kind: JobKind,
  idOrAddress: string,
  pagination: StatusPagination,
  ttlMs: number,
  baseUrl?: string,
  tenant?: string,
): Promise<JobStatusResponse | ErrorResponse> {
  const ref = parseJobReference(idOrAddress);
  if (!ref) return invalidId();
  if (pagination !== undefined && pagination !== null && typeof pagination !== 'object') {
    return { success: false, code: 'BAD_REQUEST', error: 'The pagination must be an object such as { skip, limit }.' };
  }
  const query = parseBody(paginationSchema, {
    ...(ref.skip !== undefined ? { skip: ref.skip } : {}),
    ...(ref.limit !== undefined ? { limit: ref.limit } : {}),
    ...pagination,
  });
  if (!query.ok) return query.error;
  const found = await findJob(jobs, kind, ref.id, tenant);
  if (!found) return notFound();
  return statusOf(jobs, found, { ...query.value, baseUrl }, ttlMs);
}

/** The status of a job found, with a page of its documents (none for `limit: 0`). */
async function statusOf(
  jobs: JobManager,
  found: NonNullable<Awaited<ReturnType<JobManager['find']>>>,
  query: StatusQuery,
  ttlMs: number,
): Promise<JobStatusResponse> {
  const status = await buildJobStatus(
    found.store,
    jobs.withStall(found.job),
    query,
    ttlMs,
    jobs.runsHere(found.job.id),
  );
  if (!status.warning) {
    const warning = await jobs.workerlessWarning(found.job, found.store);
    if (warning) status.warning = warning;
  }
  const warcFile = jobs.warcFileOf(found.job);
  if (warcFile !== undefined) status.warcFile = warcFile;
  if (query.limit === 0) delete status.next;
  return status;
}

export async function cancelJob(
  jobs: JobManager,
  kind: JobKind,
  id: string,
  tenant?: string,
): Promise<CancelResponse | ErrorResponse> {
  const ref = parseJobReference(id);
  if (!ref) return invalidId();
  if (!(await findJob(jobs, kind, ref.id, tenant))) return notFound();
  const result = await jobs.cancel(ref.id);
  if (result === 'not-found') return notFound();
  if (result === 'already-completed' || result === 'already-failed') {
    const name = kind === 'crawl' ? 'Crawl' : 'Batch scrape';
    return {
      success: false,
      code: 'JOB_ALREADY_COMPLETED',
      error: result === 'already-failed' ? `${name} has already failed` : `${name} is already completed`,
    };
  }
  return { status: 'cancelled' };
}

export async function getJobErrors(
  jobs: JobManager,
  kind: JobKind,
  id: string,
  tenant?: string,
): Promise<CrawlErrorsResponse | ErrorResponse> {
  const ref = parseJobReference(id);
  if (!ref) return invalidId();
  const found = await findJob(jobs, kind, ref.id, tenant);
  if (!found) return notFound();
  return buildJobErrors(found.store, found.job);
}

export async function getActiveCrawls(jobs: JobManager, tenant?: string): Promise<ActiveCrawlsResponse> {
  const crawls: ActiveCrawlsResponse['crawls'] = [];
  for (const store of jobs.stores()) {
    for (const job of await store.jobs.list({ status: ['scraping'], kind: 'crawl' })) {
      if (!visibleTo(job, tenant)) continue;
      const { request, tenant: owner } = hideJobSecrets(storedJobOf<CrawlRequest>(job));
      const { url, webhook: _webhook, ...options } = request;
      crawls.push({
        id: job.id,
        teamId: owner ?? 'local',
        url: redactUrl(url),
        created_at: new Date(job.createdAt).toISOString(),
        options,
      });
    }
  }
  return { success: true, crawls };
}

/**
 * A job's final status once it has finished, with every result page joined into `data`; `documents: false` answers
 * `data: []` and reads none (`WaitOptions.documents`).
 */
export async function waitForJob(
  jobs: JobManager,
  id: string,
  ttlMs: number,
  signal: AbortSignal | undefined,
  { tenant, documents = true }: Pick<WaitOptions, 'tenant' | 'documents'> = {},
): Promise<JobStatusResponse | ErrorResponse> {
  if (typeof documents !== 'boolean') {
    return { success: false, code: 'BAD_REQUEST', error: '`documents` must be true or false.' };
  }
  const ref = parseJobReference(id);
  if (!ref) return invalidId();
  if (!(await findJob(jobs, undefined, ref.id, tenant))) return notFound();
  const job = await jobs.wait(ref.id, signal);
  if (!job) return notFound();
  if (!documents) {
    const found = await jobs.find(job.id);
    return found ? statusOf(jobs, found, { skip: 0, limit: 0 }, ttlMs) : notFound();
  }
  const first = await getJobStatus(jobs, job.kind, job.id, { skip: 0, limit: 1000 }, ttlMs);
  if (!first.success) return first;
  let next = first.next;
  while (next) {
    const page = await getJobStatus(jobs, job.kind, next, {}, ttlMs);
    if (!page.success || page.data.length === 0) break;
    first.data.push(...page.data);
    next = page.next;
  }
  delete first.next;
  return first;
}

/** Resumes an unfinished job in this process; only a running (`scraping`) job resumes. */
export async function resumeJob(jobs: JobManager, id: string): Promise<{ success: true; id: string } | ErrorResponse> {
  const ref = parseJobReference(id);
  if (!ref) return invalidId();
  const found = await jobs.find(ref.id);
  if (!found) return notFound();
  if (found.job.status !== 'scraping') {
    return {
      success: false,
      code: 'JOB_NOT_RESUMABLE',
      error: `The job is ${found.job.status}; only running jobs resume.`,
    };
  }
  jobs.start(found.job, found.store);
  return { success: true, id: found.job.id };
}

/** A job that has not finished, as `listUnfinishedJobs()` lists it. */
export interface UnfinishedJob {
  id: string;
  kind: JobKind;
  /** When it was created (ISO 8601). */
  createdAt: string;
}

/** Unfinished jobs in the store: left by a crash, or running in another process. */
export async function listUnfinishedJobs(jobs: JobManager): Promise<UnfinishedJob[]> {
  const unfinished = await jobs.unfinished();
  return unfinished.map((j) => ({ id: j.id, kind: j.kind, createdAt: new Date(j.createdAt).toISOString() }));
}
