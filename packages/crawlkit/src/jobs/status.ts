import { redactUrl } from '@crawlkit/fetcher';
import type { JobCounts, JobRecord, JobStatus, Store } from '@crawlkit/store';

import type { CrawlRequest } from '../v2/jobs.js';
import type { CrawlErrorsResponse, Document, JobStatusResponse } from '../v2/types.js';
import { nextTurn } from '../next-turn.js';
import { jobAddress } from './job-address.js';
import { decodeDocument, storedJobOf } from '../codec/records.js';
import { storeStallWarning } from '../store-faults.js';
import { robotsNotes, unreadableSitemapNotes } from './frontier-fetch.js';
import { emptyPatternNote, SEED_PATH_REFUSED, seedLimitNote, seedPathNote } from './pattern-note.js';
import { seedLandingNote } from './seed-landing-note.js';
import { sendTheSession } from '../scrape/sign-in-redirect.js';

/** A status page is cut so that its documents stay under this many characters of JSON (always at least one). */
const MAX_PAGE_BYTES = 10 * 1024 * 1024;
/** Characters of documents read and parsed between two turns of the event loop. */
const SLICE_CHARS = 1024 * 1024;

const ROBOTS_WARNING =
  'One or more pages were unable to be crawled because the robots.txt file prevented this. ' +
  'Please use the /scrape endpoint instead.';

function isoSeconds(ms: number): string {
  const date = new Date(ms);
  date.setMilliseconds(0);
  return date.toISOString();
}

function isBareDomain(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.pathname === '/' || u.pathname === '') && !u.search;
  } catch {
    return false;
  }
}

/**
 * A job's `completed` and `total` as upstream counts them: `completed` is the documents stored (what `data` pages
 * through), `total` adds the pages still queued or running. Failed pages (listed by the errors endpoint) and pages
 * discarded (a seed outside `includePaths`) are in neither, so a finished job has `completed === total ===` its
 * documents. A job that has ended has no page to come, whatever its tasks say: a cancel stops the pages in flight
 * and their tasks go back to the queue after it was emptied; a failed job leaves its queue as it was.
 */
export function jobProgress(
  counts: JobCounts,
  documents: number,
  status: JobStatus,
): { completed: number; total: number } {
  const pending = status === 'scraping' ? counts.queued + counts.active : 0;
  return { completed: documents, total: documents + pending };
}

export interface StatusQuery {
  skip: number;
  limit: number;
  /** Base of the `next` address (`jobAddress`). */
  baseUrl?: string | undefined;
}

/**
 * One page of a job's documents: at most `limit`, cut at `MAX_PAGE_BYTES` characters (at least one document). Read
 * and parsed ~1 MB at a time with a turn of the event loop in between, so that reads of a large job (four
 * `?limit=10000` of a 400 MB job at once held other requests 1.2-5.2 s) neither read the job nor hold the loop
 * (issue 38).
 */
async function readPage(store: Store, id: string, query: StatusQuery): Promise<Document[]> {
  const data: Document[] = [];
  let chars = 0;
  while (data.length < query.limit && chars < MAX_PAGE_BYTES) {
    const room = Math.min(SLICE_CHARS, MAX_PAGE_BYTES - chars);
    const slice = await store.results.list(id, query.skip + data.length, query.limit - data.length, {
      maxChars: room,
    });
    if (slice.length === 0) break;
    for (const result of slice) {
      // A slice's first document comes whatever its size: past the page's size, it waits for the next page.
      if (data.length > 0 && chars + result.document.length > MAX_PAGE_BYTES) return data;
      chars += result.document.length;
      data.push(decodeDocument(result.document));
    }
    await nextTurn();
  }
  return data;
}

/** The v2 status of a crawl or batch job with one page of its results (reference §13.6). */
export async function buildJobStatus(
  store: Store,
  job: JobRecord,
  query: StatusQuery,
  ttlMs: number,
  /** The job runs in this process (its stall has no `storeFaultTimeoutMs`). @default false */
  runsHere = false,
): Promise<JobStatusResponse> {
  const [counts, resultCount] = await Promise.all([store.tasks.counts(job.id), store.results.count(job.id)]);
  const data = await readPage(store, job.id, query);

  const response: JobStatusResponse = {
    success: true,
    status: job.status,
    ...jobProgress(counts, resultCount, job.status),
    creditsUsed: job.creditsUsed,
    expiresAt: isoSeconds(job.expiresAt ?? job.createdAt + (storedJobOf(job).resultTtlMs ?? ttlMs)),
    data,
    createdAt: new Date(job.createdAt).toISOString(),
  };
  if (job.completedAt !== undefined) {
    response.completedAt = new Date(job.completedAt).toISOString();
    response.duration = Math.round((job.completedAt - job.createdAt) / 1000);
  }
  // `next` only when more documents are stored: a running job's status read again later shows the new ones. A `next`
  // to an empty page while the job runs made the SDK's paginator loop (6,598 requests in 8.5 s, issue 36).
  const served = query.skip + data.length;
  if (served < resultCount) {
    response.next = jobAddress(job.kind, job.id, { skip: served, limit: query.limit }, query.baseUrl);
  }
  const warning =
    storeStallWarning(job, runsHere) ??
    (job.kind === 'crawl' ? await crawlWarning(store, job, resultCount) : undefined);
  // The reason a job ended failed (a store that refused, a spent store budget): the status is where a poller looks.
  const failure = job.status === 'failed' && job.error ? `The job failed: ${job.error.replace(/\.?$/, '.')}` : '';
  if (failure || warning) response.warning = [failure, warning].filter(Boolean).join(' ');
  return response;
}

async function crawlWarning(store: Store, job: JobRecord, resultCount: number): Promise<string | undefined> {
  if (job.status === 'scraping') return undefined;
  if ((await store.results.robotsBlocked(job.id)).length > 0) return ROBOTS_WARNING;
  const stored =
    storedJobOf<
      Pick<CrawlRequest, 'url' | 'crawlEntireDomain' | 'limit' | 'includePaths' | 'excludePaths' | 'regexOnFullURL'>
    >(job);
  const { request, robotsUnavailable, robotsTruncatedAt, sitemapsUnreadable, trapsSkipped, limitReached } = stored;
  const { seedLanded, signInRedirected } = stored;
  const notes: string[] = [];
  const landing = seedLandingNote(request.url, seedLanded);
  if (landing) notes.push(landing);
  // A link found past `limit` was left out (`noteLimitCut`). Unsaid, "completed: 60 pages" reads as a site of 60
  // pages (a calendar or facet trap, unseen); a site of exactly `limit` pages is told nothing.
  if (job.status === 'completed' && limitReached && request.limit !== undefined) {
    notes.push(
      `The crawl reached its limit of ${request.limit} page(s): links found past it were not followed. Raise ` +
        '`limit` to crawl more, or narrow the crawl (`excludePaths`, `maxDiscoveryDepth`, `ignoreQueryParameters`) ' +
        'if the site generates pages without end.',
    );
    const seed = seedLimitNote(request.url, request, resultCount);
    if (seed) notes.push(seed);
  }
  const robotsUrl = new URL('/robots.txt', request.url).href;
  notes.push(...robotsNotes(robotsUrl, { unavailable: robotsUnavailable, truncatedAt: robotsTruncatedAt }, 'crawl'));
  notes.push(...unreadableSitemapNotes(sitemapsUnreadable ?? []));
  for (const { reason, url } of trapsSkipped ?? []) {
    if (reason !== SEED_PATH_REFUSED) notes.push(trapNote(reason, url));
    // A crawl that reached its limit was cut by it, whatever its patterns refused.
    else if (job.status === 'completed' && !limitReached && resultCount < (request.limit ?? Infinity)) {
      const note = seedPathNote(request.url, url, request);
      if (note) notes.push(note);
    }
  }
  if (signInRedirected !== undefined) notes.push(await signInRedirects(store, job.id, signInRedirected));
  // A narrow scope is told of a crawl that completed: one that failed (its seed did) or was cancelled says so itself.
  if (job.status === 'completed' && resultCount <= 1 && !isBareDomain(request.url) && !request.crawlEntireDomain) {
    const origin = new URL(request.url).origin;
    notes.push(
      `Only ${resultCount} result(s) found. For broader coverage, try crawling with crawlEntireDomain=true ` +
        `or start from a higher-level path like ${origin}`,
    );
  }
  // After upstream's "Only N result(s)" sentence, which a client may match at the start.
  const patterns = job.status === 'completed' ? emptyPatternNote(request.url, request, resultCount) : undefined;
  if (patterns) notes.push(patterns);
  return notes.length ? notes.join(' ') : undefined;
}

export async function buildJobErrors(store: Store, job: JobRecord): Promise<CrawlErrorsResponse> {
  const [errors, robotsBlocked] = await Promise.all([
    store.results.errors(job.id),
    store.results.robotsBlocked(job.id),
  ]);
  return {
    errors: errors.map((e) => ({
      id: e.id,
      timestamp: new Date(e.timestamp).toISOString(),
      url: redactUrl(e.url),
      ...(e.code !== undefined ? { code: e.code } : {}),
      error: e.error,
    })),
    robotsBlocked: robotsBlocked.map((url) => redactUrl(url)),
  };
}

/**
 * What a crawl's status says of its pages that landed on a sign-in page (`CRAWL_SIGN_IN_REDIRECT` in its errors, the
 * first of them `first`): a session that ran out mid-crawl, or pages it may not read.
 */
async function signInRedirects(store: Store, jobId: string, first: string): Promise<string> {
  const count = (await store.results.errors(jobId)).filter((e) => e.code === 'CRAWL_SIGN_IN_REDIRECT').length;
  return (
    `${Math.max(count, 1)} page(s) redirected to a sign-in page, the first ${redactUrl(first)}: they are in the ` +
    `crawl's errors, not its data. ${sendTheSession('crawl')} Or exclude the pages it may not read (\`excludePaths\`).`
  );
}

/** What a crawl's status says of the links a trap rule refused, with the first one. */
function trapNote(reason: string, url: string): string {
  const shown = url.length > 200 ? `${redactUrl(url).slice(0, 200)}…` : redactUrl(url);
  const why =
    reason === 'URL_TOO_LONG'
      ? 'longer than the longest URL a crawl follows (a link that grows on every page)'
      : 'a path segment repeated more than a crawl follows (a calendar or a relative link nesting a page in itself)';
  return `Links were skipped as crawl traps, ${why}: the first was ${shown}.`;
}
