/**
 * Every JSON record crawlkit keeps in a store, each with its codec: the one place they are encoded, decoded and
 * checked (`record-codec.ts`). Stores are byte transports: they never read these.
 */
import type { UrlPolicy } from '@crawlkit/fetcher';
import type { JobRecord } from '@crawlkit/store';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';

import { CrawlkitError } from '../errors.js';
import type { Extraction } from '../extraction/extraction.js';
import type { StoredCachePolicy } from '../scrape/revalidation.js';
import type { Document, ScheduleChangePayload, WebhookPayload } from '../v2/types.js';
import { OPTION_NAMES } from '../operator-words.js';
import { recordCodec } from './record-codec.js';
import { isObject } from '@crawlkit/options';

const headers = z.record(z.string(), z.string());

/** A webhook as validated (its header values sealed in the store). */
const storedWebhook = z.object({
  url: z.string(),
  headers,
  metadata: z.record(z.string(), z.string()),
  events: z.array(z.enum(['started', 'page', 'completed', 'failed'])),
});

/**
 * What a job keeps of its start (`JobRecord.request`): the validated v2 request (its header values sealed), its
 * webhook, and the submitter's URL policy, which whoever runs the job applies on top of its own.
 */
export const storedJobCodec = recordCodec({
  name: 'job request',
  version: 1,
  schema: z.object({
    /** Who started the job (`CallOptions.tenant`: an HTTP server's API key, hashed); absent for the operator's jobs. */
    tenant: z.string().optional(),
    /** The job kind's validated v2 request: typed by `storedJobOf` for its kind. */
    request: z.custom<object>(isObject, { error: 'Expected the request object' }),
    webhook: storedWebhook.optional(),
    urlPolicy: z.custom<UrlPolicy>(isObject, { error: 'Expected a URL policy object' }).optional(),
    /** The start's `creditLimit`: each page reserves its credits under it, wherever the job runs (issue 38). */
    creditLimit: z.number().nonnegative().optional(),
    /**
     * The starting engine's webhook secret, sealed like header values: whichever process sends the job's events signs
     * them with it. Absent when that engine had none, the job has no webhook, or it was stored before the rule.
     */
    webhookSecret: z.string().optional(),
    /**
     * The starting engine's `jobResultTtlMs`: whichever process ends the job (a Redis worker, another engine on the
     * store) keeps its results that long. Absent on jobs stored before the rule: the ending engine's own applies.
     */
    resultTtlMs: z.number().int().positive().optional(),
    /**
     * How the starting engine's surface names engine options (`WebhookOptions.optionNames`: `serve`, `mcp`), so that
     * whichever process sends the job's webhook events (a Redis `crawlkit worker` leading the outbox) words their
     * warnings and errors for the job's caller. Absent on jobs stored before the rule: the sender's own applies.
     */
    optionNames: z.enum(OPTION_NAMES).optional(),
    /**
     * A crawl's robots.txt could not be read (why: `Robots.unavailable`), so the crawl went on as if it allowed every
     * URL: its status says so. Set by the process that discovers the crawl's seeds, cleared when a resume reads it.
     */
    robotsUnavailable: z.string().optional(),
    /** A crawl's robots.txt was past 500 KiB: the bytes read (`Robots.truncatedAt`); set and cleared as above. */
    robotsTruncatedAt: z.number().optional(),
    /** A crawl's sitemaps that could not be read, with why (`SitemapListing.unreadable`); set and cleared as above. */
    sitemapsUnreadable: z.array(z.object({ url: z.string(), reason: z.string() })).optional(),
    /**
     * The first link of a crawl each trap rule refused (`URL_TOO_LONG`, `REPEATING_PATH` of `CrawlRules`), for its
     * status to say that links were skipped as traps and why: one entry a reason, written once by each planner. Also
     * the first link to the seed's own path its patterns refused (`SEED_PATH_PATTERN`, `jobs/pattern-note.ts`).
     */
    trapsSkipped: z.array(z.object({ reason: z.string(), url: z.string() })).optional(),
    /**
     * The first page past a crawl's seed that landed on a sign-in page (`CRAWL_SIGN_IN_REDIRECT` in its errors): its
     * status counts them only when it is set. Written once by each planner that met one.
     */
    signInRedirected: z.string().optional(),
    /** A link the crawl found was left out because the job held `limit` tasks (`noteLimitCut`). */
    limitReached: z.boolean().optional(),
    /**
     * Where a crawl's seed led: its URL after redirects (the seed itself when it did not move or failed). Written by
     * the process that fetched the seed before the seed's links are queued, so that every planner of the job (a
     * resumed one, another engine's, each Redis worker) judges links by the scope it adds (`CrawlRules.rebase`).
     * Absent until the seed is fetched, and on crawls stored before the rule.
     */
    seedLanded: z.string().optional(),
    /**
     * Set on a crawl at its start, until `seedLanded` is written: its planners wait for the landing (they read the job
     * again before a page's links, `SeedLanding.learn`). A crawl with neither was stored before the rule, its seed
     * fetched by a crawlkit that did not write where it led: nothing will, so nothing is waited for.
     */
    seedAwaited: z.literal(true).optional(),
  }),
});

/** Per-task data kept with a task (`Task.meta`). */
export const taskMetaCodec = recordCodec({
  name: 'task',
  version: 1,
  schema: z.object({
    /** `metadata.sourceURL` for this page, when it differs from the task URL (batch URLs as sent). */
    sourceURL: z.string().optional(),
  }),
});

/** One queued webhook event (`Delivery.payload`): where it goes, its sealed headers, and its body. */
export const deliveryCodec = recordCodec({
  name: 'webhook delivery',
  version: 1,
  schema: z.object({
    url: z.string(),
    headers,
    body: z.custom<WebhookPayload | ScheduleChangePayload>(
      (v) =>
        isObject(v) &&
        typeof (v as { type?: unknown }).type === 'string' &&
        typeof (v as { id?: unknown }).id === 'string',
      { error: 'Expected a webhook payload with its type and job id' },
    ),
    /** The job's URL policy, which gates the POST wherever it is sent; null when the job has none (issue 38). */
    urlPolicy: z.custom<UrlPolicy>(isObject, { error: 'Expected a URL policy object' }).nullable().optional(),
    /** The job's sealed webhook secret (`StoredJob.webhookSecret`); null when it has none. */
    secret: z.string().nullable().optional(),
    /** The job's `optionNames`: absent when it recorded none (the sending process's own apply). */
    optionNames: z.enum(OPTION_NAMES).optional(),
  }),
});

/** A scrape's document kept for `GET /v2/scrape/:id` (`ScrapeCallOptions.keepResult`), with who made it. */
export const keptScrapeCodec = recordCodec({
  name: 'kept scrape',
  version: 1,
  schema: z.object({
    tenant: z.string().optional(),
    document: z.custom<Document>((v) => isObject(v) && isObject((v as { metadata?: unknown }).metadata), {
      error: 'Expected a document with its metadata',
    }),
  }),
});

/** What change tracking keeps of one scrape of a page (`HistoryEntry.value`). */
export const snapshotCodec = recordCodec({
  name: 'change-tracking snapshot',
  version: 1,
  schema: z.object({
    markdown: z.string(),
    statusCode: z.number().int().default(200),
    /**
     * Hashes of what the markdown was made from (`formats/snapshot-source.ts`): the page as fetched and the options
     * that shape its markdown. When the next scrape's are the same, the page is `same` whatever its markdown (a new
     * extractor). Absent on snapshots of a crawlkit before the rule (b58): those compare markdowns.
     */
    source: z.object({ page: z.string(), options: z.string() }).optional(),
  }),
});

/**
 * What a crawl lineage keeps of its last completed run (issue 41): each page's crawl key, its URL and the hash of its
 * main content. Kept in the history store under the lineage (`changes/change-feed.ts`).
 */
export const lineageRunCodec = recordCodec({
  name: 'crawl lineage run',
  version: 1,
  schema: z.object({
    jobId: z.string(),
    completedAt: z.number(),
    /** `[key, url, contentHash]` per page. */
    pages: z.array(z.tuple([z.string(), z.string(), z.string()])),
  }),
  // Read at a crawl's start and at its close: zod's check of a large site's tuples, run cold, is a recrawl's cost.
  check: ({ jobId, completedAt, pages }) => {
    if (typeof jobId !== 'string') return 'jobId: Expected a string';
    if (typeof completedAt !== 'number') return 'completedAt: Expected a number';
    if (!Array.isArray(pages)) return 'pages: Expected an array';
    const bad = pages.findIndex(
      (page) =>
        !Array.isArray(page) ||
        page.length !== 3 ||
        typeof page[0] !== 'string' ||
        typeof page[1] !== 'string' ||
        typeof page[2] !== 'string',
    );
    return bad === -1 ? undefined : `pages.${bad}: Expected [key, url, contentHash]`;
  },
});

/**
 * What a WARC recording says of its job (its `warcinfo` field `crawlkit-job`, issue 41): the kind and the request
 * without secrets, which `crawlkit replay` runs again.
 */
export const recordedJobCodec = recordCodec({
  name: 'recorded job',
  version: 1,
  schema: z.object({
    kind: z.enum(['crawl', 'batch', 'scrape']),
    request: z.record(z.string(), z.unknown()),
  }),
});

/**
 * A schedule (issue 41) as `ScheduleStore` keeps it: its clock, its targets as given (header values sealed) and its
 * webhook (header values sealed). Its next firing is the store's own column.
 */
export const scheduleCodec = recordCodec({
  name: 'schedule',
  version: 1,
  schema: z.object({
    tenant: z.string().optional(),
    /** The creating call's `creditLimit` (a server's `--credit-limit`): its crawls run under it, as the tenant's. */
    creditLimit: z.number().nonnegative().optional(),
    name: z.string().optional(),
    every: z.string().optional(),
    cron: z.string().optional(),
    /** The IANA time zone `cron` is read in (a monitor's `schedule.timezone`); UTC when absent. */
    timezone: z.string().optional(),
    targets: z.array(z.looseObject({ type: z.enum(['crawl', 'scrape']), url: z.string() })),
    webhook: z
      .object({
        url: z.string(),
        headers,
        metadata: z.record(z.string(), z.string()),
        events: z.array(z.enum(['new', 'changed', 'removed', 'same'])),
      })
      .optional(),
    /**
     * The creating engine's webhook secret, sealed (as `StoredJob.webhookSecret`): whichever process runs the schedule
     * signs its change events with it. Absent when that engine had none, the schedule has no webhook, or it was stored
     * before the rule (the sending process's own secret signs them then).
     */
    webhookSecret: z.string().optional(),
    /**
     * Set while the schedule is paused: when, and the firing it had then. The store's `nextRunAt` is never meanwhile,
     * so that no process fires it (a crawlkit before pausing reads it as a cron that never fires again).
     */
    paused: z.object({ at: z.number(), nextRunAt: z.number() }).optional(),
  }),
});

/** One firing of a schedule, kept in the history store under the schedule's id: the crawls it started. */
export const scheduleRunCodec = recordCodec({
  name: 'schedule run',
  version: 1,
  schema: z.object({
    /** This firing's own id (a monitor's check is named by it); absent in runs stored before it was kept. */
    runId: z.string().optional(),
    dueAt: z.number(),
    startedAt: z.number(),
    /**
     * The crawl job of each target, in target order: the one started, the one still running for a skipped target, or
     * null for a target refused at that firing (see `errors`).
     */
    jobIds: z.array(z.string().nullable()),
    /** Targets skipped because their previous crawl (their `jobIds` entry) was still running. */
    skipped: z.array(z.number()).default([]),
    errors: z.array(z.string()),
  }),
});

/** What a completed crawl with a change feed keeps beside its results: its baseline and the pages it lost. */
export const crawlChangesCodec = recordCodec({
  name: 'crawl changes',
  version: 1,
  schema: z.object({
    lineage: z.string(),
    previousJobId: z.string().nullable(),
    removed: z.array(z.string()),
  }),
});

/**
 * A page's extraction kept beside its page cache entry (pages with validators, issue 41): a copy confirmed by a 304
 * in a new process is not extracted again, nor its main content hashed again for the change feed (`contentHash`;
 * a record written without it is hashed). `fetchedAt` is the page's
 * (`FetchedPage.fetchedAt`), which a confirmation keeps and a new fetch changes.
 */
/**
 * A robots.txt or sitemap kept in the page cache with its caching rules, asked for again conditionally by the next
 * crawl or map (`jobs/frontier-fetch.ts`); its bytes are the entry's body.
 */
export const frontierFileCodec = recordCodec({
  name: 'kept robots.txt or sitemap',
  version: 1,
  schema: z.object({
    /** Where it was fetched from, after redirects. */
    url: z.string(),
    contentType: z.string(),
    policy: z.custom<StoredCachePolicy>(isObject),
    declaredCharset: z.string().optional(),
    contentLanguage: z.string().optional(),
  }),
});

export const storedExtractionCodec = recordCodec({
  name: 'stored extraction',
  version: 1,
  schema: z.object({
    fetchedAt: z.number(),
    contentHash: z.string().optional(),
    extraction: z.custom<Extraction>((v) => isObject(v) && isObject((v as { metadata?: unknown }).metadata), {
      error: 'Expected an extraction with its metadata',
    }),
  }),
  // Every page a recrawl confirms in a new process is read through here: zod's first parses run cold.
  check: ({ fetchedAt, contentHash, extraction }) => {
    if (typeof fetchedAt !== 'number') return 'fetchedAt: Expected a number';
    if (contentHash !== undefined && typeof contentHash !== 'string') return 'contentHash: Expected a string';
    if (!isObject(extraction) || !isObject((extraction as { metadata?: unknown }).metadata)) {
      return 'extraction: Expected an extraction with its metadata';
    }
    return undefined;
  },
});

/**
 * A stored job result. Documents are kept as the v2 JSON they are answered with (their version is the API's, and
 * results are read in pages of thousands), so the check is structural: an object with its `metadata`.
 */
export function decodeDocument(text: string): Document {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CrawlkitError('STORE_RECORD_INVALID', 'A job result in the store is not JSON: the store was damaged.');
  }
  const metadata = (parsed as { metadata?: unknown } | null)?.metadata;
  if (typeof metadata !== 'object' || metadata === null) {
    throw new CrawlkitError(
      'STORE_RECORD_INVALID',
      'A job result in the store has no metadata: the store was damaged.',
    );
  }
  return parsed as Document;
}

const backlogUrls = z.array(z.string());

/**
 * The URLs of a batch's backlog from their JSON text (`StoredBatchRequest.backlogZ`, once inflated): an array of
 * strings, or `STORE_RECORD_INVALID`.
 */
export function decodeBacklog(text: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CrawlkitError(
      'STORE_RECORD_INVALID',
      "A batch's URL backlog in the store is not JSON: the store was damaged.",
    );
  }
  const urls = backlogUrls.safeParse(parsed);
  if (!urls.success) {
    throw new CrawlkitError(
      'STORE_RECORD_INVALID',
      "A batch's URL backlog in the store is not a list of URLs: the store was damaged.",
    );
  }
  return urls.data;
}

export type RecordedJob = ReturnType<typeof recordedJobCodec.decode>;
export type StoredJobEnvelope = ReturnType<typeof storedJobCodec.decode>;

/** A stored job with its request typed as its kind stores it. */
export type StoredJobOf<R> = Omit<StoredJobEnvelope, 'request'> & { request: R };

/** Decoded job requests, by their text: a job's record is read again and again, its request decoded once. */
const decodedJobs = new LRUCache<string, StoredJobEnvelope>({ max: 512 });

/**
 * The stored job of `job`, decoded once per request text. The request's own shape is the job kind's validated v2
 * request (`R`): what this crawlkit's schema of that kind produced when the job started.
 */
export function storedJobOf<R extends object>(job: Pick<JobRecord, 'request'>): StoredJobOf<R> {
  let decoded = decodedJobs.get(job.request);
  if (!decoded) {
    decoded = storedJobCodec.decode(job.request);
    decodedJobs.set(job.request, decoded);
  }
  return decoded as StoredJobOf<R>;
}
