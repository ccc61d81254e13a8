import { completedChanges, feedOf, feedUrl } from '../changes/change-feed.js';
import { decodeDocument } from '../codec/records.js';
import { jobAddress, parseJobReference } from '../jobs/job-address.js';
import type { JobManager } from '../jobs/job-manager.js';
import { visibleTo } from '../jobs/job-tenant.js';
import { paginationSchema } from '../v2/jobs.js';
import { parseBody } from '../v2/parse.js';
import type { CrawlChangesResponse, ErrorResponse } from '../v2/types.js';
import { invalidId, notFound, type StatusPagination } from './job-queries.js';

/** The path of a changes address after the status address it extends. */
const CHANGES_SUFFIX = /\/changes(?=\?|$)/;

/**
 * `GET /v2/crawl/:id/changes`: the crawl's change feed in pages of `limit` entries, `next` while more are stored.
 * Its stored pages come first, in completion order (`metadata.crawlChange`), then, once it completed, the pages of
 * the lineage's previous run it no longer has (`removed`). `idOrAddress` is an id or a `next` address.
 */
export async function getCrawlChanges(
  jobs: JobManager,
  idOrAddress: string,
  pagination: StatusPagination,
  baseUrl?: string,
  tenant?: string,
): Promise<CrawlChangesResponse | ErrorResponse> {
  const ref = parseJobReference(idOrAddress.replace(CHANGES_SUFFIX, ''));
  if (!ref) return invalidId();
  const query = parseBody(paginationSchema, {
    ...(ref.skip !== undefined ? { skip: ref.skip } : {}),
    ...(ref.limit !== undefined ? { limit: ref.limit } : {}),
    ...pagination,
  });
  if (!query.ok) return query.error;
  const found = await jobs.find(ref.id);
  if (!found || found.job.kind !== 'crawl' || !visibleTo(found.job, tenant)) return notFound();
  const { job, store } = found;
  if (!feedOf(job)) {
    return {
      success: false,
      code: 'BAD_REQUEST',
      error: 'This crawl has no change feed: start it with `changes: true` or a `tag` to compare it with its last run.',
    };
  }
  const { skip, limit } = query.value;
  const [stored, closed] = await Promise.all([store.results.count(job.id), completedChanges(store, job.id)]);
  const removed = closed?.removed ?? [];
  const data: CrawlChangesResponse['data'] = [];
  let served = skip;
  if (skip < stored) {
    const results = await store.results.list(job.id, skip, limit);
    served += results.length;
    for (const { document } of results) {
      const { metadata } = decodeDocument(document);
      if (metadata.crawlChange) data.push({ url: feedUrl(metadata), change: metadata.crawlChange });
    }
  }
  const room = skip + limit - served;
  if (room > 0 && served >= stored) {
    const from = served - stored;
    const taken = removed.slice(from, from + room);
    for (const url of taken) data.push({ url, change: 'removed' });
    served += taken.length;
  }
  const response: CrawlChangesResponse = { success: true, status: job.status, data };
  if (closed) response.previousCrawlId = closed.previousJobId;
  if (served < stored + removed.length) {
    const next = jobAddress('crawl', job.id, { skip: served, limit }, baseUrl);
    response.next = next.replace(/(\/v2\/crawl\/[^/?]+)/, '$1/changes');
  }
  return response;
}
