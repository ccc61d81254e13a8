/**
 * The v2 response shapes (reference §9–§16). Requests are typed by their schemas (`*RequestInput`).
 */
import type { BrandingProfile } from '@crawlkit/extractor';

import type { CrawlkitErrorCode } from '../error-codes.js';

/** Metadata of a document: engine keys plus every page meta tag under its raw key (reference §9.1). */
export interface DocumentMetadata {
  /** The first `<title>` (else `og:title`). */
  title?: string;
  /** Repeated description tags are joined with `, `. */
  description?: string;
  /** `<html lang>`, else the first `<meta name="language">`. */
  language?: string;
  keywords?: string | string[];
  /** Repeated robots tags are joined with `, `. */
  robots?: string;
  /**
   * crawlkit's own: the response's `X-Robots-Tag` header (several joined with `, `), the robots rules search engines
   * read beside (or, for a PDF, instead of) the `robots` meta tag. Absent when the response has none.
   */
  xRobotsTag?: string;
  favicon?: string;
  /**
   * crawlkit's own: the page's `<link rel=canonical>` in its head, absolute; a list, in the page's order, when it
   * names several that differ (a crawl folds the page into the first).
   */
  canonical?: string | string[];
  ogTitle?: string;
  ogDescription?: string;
  ogUrl?: string;
  ogImage?: string;
  ogLocaleAlternate?: string[];
  ogSiteName?: string;
  /** The URL exactly as the caller sent it (crawls: the discovered URL). */
  sourceURL: string;
  /** The final URL after redirects. */
  url?: string;
  statusCode: number;
  contentType?: string;
  /** Why the page has no content: a search result whose scrape failed (`scrapeOptions`), with `errorCode`. */
  error?: string;
  /** crawlkit's own: the stable code of `error` (`SCRAPE_TIMEOUT`, `URL_BLOCKED`, ...), as an error answer has. */
  errorCode?: string;
  proxyUsed?: 'basic' | 'stealth';
  cacheState?: 'hit' | 'miss';
  /**
   * crawlkit's own: the cached copy served (`cacheState: 'hit'`) was past `maxAge` and the site confirmed it with
   * `304 Not Modified` to a conditional request. `cacheState` stays within v2's `hit | miss` for typed clients.
   */
  revalidated?: boolean;
  /**
   * crawlkit's own, in a crawl with a change feed (`changes` or `tag`): the page against the lineage's previous
   * completed run (`new`, `changed`, `same`; `removed` for a page that now answers an error status).
   */
  crawlChange?: CrawlChange;
  /**
   * crawlkit's own, with `crawlChange` `new`, `changed` or `same` (a version of the page; never on a page `removed` or
   * answering an error): SHA-256 of the page's main content as markdown, whitespace collapsed.
   */
  contentHash?: string;
  cachedAt?: string;
  scrapeId?: string;
  creditsUsed?: number;
  numPages?: number;
  totalPages?: number;
  timezone?: string;
  /** The WARC file a scrape with `record: true` wrote (crawlkit). */
  warcFile?: string;
  /** Which engine fetched the page and why (crawlkit). */
  engine?: 'http' | 'browser';
  engineReason?: string;
  [key: string]: unknown;
}

// Type aliases (not interfaces) so that they assign to `Record<string, unknown>`, as the SDK types these objects.
export type ActionResults = {
  screenshots?: string[];
  scrapes?: { url: string; html: string }[];
  javascriptReturns?: { type: string; value: unknown }[];
  pdfs?: string[];
};

export type ChangeTrackingResult = {
  previousScrapeAt: string | null;
  changeStatus: 'new' | 'same' | 'changed' | 'removed';
  visibility: 'visible' | 'hidden';
  diff?: {
    text: string;
    json: {
      files: {
        from: string | null;
        to: string | null;
        chunks: {
          content: string;
          changes: { type: string; normal?: boolean; ln?: number; ln1?: number; ln2?: number; content: string }[];
        }[];
      }[];
    };
  };
  json?: unknown;
};

/** Brand identity of a page (reference §12): colours, fonts, typography, spacing, components, images, personality. */
export type { BrandingProfile };

/** A price of the `product` format. */
export type ProductPrice = { amount: number; currency?: string; formatted?: string };

/** A purchasable variant of the `product` format (one per offer the page declares). */
export type ProductVariant = {
  id?: string;
  sku?: string;
  title?: string;
  values?: Record<string, unknown>;
  /** An offer's price; an `AggregateOffer`'s lowest (`lowPrice`). */
  price?: ProductPrice;
  /** crawlkit's own: an `AggregateOffer`'s highest price (`highPrice`), in `price`'s shape. */
  highPrice?: ProductPrice;
  /** crawlkit's own: how many offers an `AggregateOffer` sums up (`offerCount`). */
  offerCount?: number;
  sale?: { originalPrice: ProductPrice };
  /** `text` is the page's own word (schema.org's `InStock`, `OutOfStock`...), `Unknown` when it gives none. */
  availability: { inStock: boolean; text?: string };
  images?: { url: string; alt?: string }[];
};

/** The `product` format: what a product page declares in JSON-LD, microdata or OpenGraph. */
export type ProductProfile = {
  title: string;
  brand?: string;
  category?: string;
  url: string;
  description?: string;
  variants: ProductVariant[];
};

/** A postal address of a `jobPosting`'s `jobLocation`: the parts the page gives. */
export type JobPostingAddress = {
  streetAddress?: string;
  addressLocality?: string;
  addressRegion?: string;
  postalCode?: string;
  addressCountry?: string;
  /** The place's name, or its address as one string, when the page gives no parts. */
  name?: string;
};

/**
 * The `jobPosting` format (crawlkit's own): what a job page declares as a schema.org `JobPosting` in JSON-LD or
 * microdata. A field the page does not declare is absent.
 */
export type JobPostingProfile = {
  title?: string;
  /** The description as text (the page's HTML in it written as lines). */
  description?: string;
  datePosted?: string;
  validThrough?: string;
  /** schema.org's words (`FULL_TIME`, `PART_TIME`, `CONTRACTOR`…), as the page writes them. */
  employmentType?: string[];
  hiringOrganization?: { name?: string; url?: string };
  jobLocation?: JobPostingAddress[];
  /** As the page gives it (`TELECOMMUTE`). */
  jobLocationType?: string;
  /** `true` when `jobLocationType` is `TELECOMMUTE`. */
  remote?: boolean;
  /** `baseSalary`: a `MonetaryAmount`'s currency and its `QuantitativeValue` (`unit`: `HOUR`, `MONTH`, `YEAR`…). */
  baseSalary?: { currency?: string; min?: number; max?: number; value?: number; unit?: string };
  /** The posting's own identifier (a `PropertyValue`'s `value`). */
  identifier?: string;
  directApply?: boolean;
  /** The posting's URL, absolute. */
  url?: string;
};

/** A scrape result (`data` of the scrape response; one entry of job results). */
export interface Document {
  markdown?: string;
  summary?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  images?: string[];
  screenshot?: string;
  json?: unknown;
  attributes?: { selector: string; attribute: string; values: string[] }[];
  actions?: ActionResults;
  changeTracking?: ChangeTrackingResult;
  branding?: BrandingProfile;
  /** `highlights`: the passages answering the format's `query`, verbatim, separated by blank lines. */
  highlights?: string;
  /** `question` and `query`: the answer, written from the page's best passages. */
  answer?: string;
  product?: ProductProfile;
  /** `jobPosting` (crawlkit's own): the job the page declares. */
  jobPosting?: JobPostingProfile;
  /** `rawBase64`: the page's bytes as fetched, base64-encoded. */
  rawBase64?: string;
  warning?: string;
  metadata: DocumentMetadata;
}

/** The v2 error body. `code` is stable (its HTTP status: `httpStatusOf(code)`); `error` says what to fix. */
export interface ErrorResponse {
  success: false;
  code?: CrawlkitErrorCode;
  error: string;
  details?: unknown;
  /**
   * crawlkit's own: the WARC file of a scrape with `record: true` that failed after the site answered (an image, a
   * binary file, a document too large to extract): the responses are recorded there all the same.
   */
  warcFile?: string;
}

export interface ScrapeResponse {
  success: true;
  data: Document;
  warning?: string;
}

export interface CrawlResponse {
  success: true;
  id: string;
  url: string;
  promptGeneratedOptions?: Record<string, unknown>;
  finalCrawlerOptions?: Record<string, unknown>;
}

export interface BatchScrapeResponse {
  success: true;
  id: string;
  url: string;
  invalidURLs?: string[];
  /** `appendToId` only: the options of the request the batch did not apply (it keeps those it was started with). */
  warning?: string;
}

export type JobStatus = 'scraping' | 'completed' | 'failed' | 'cancelled';

/** Status of a crawl or batch job (reference §13.6). */
export interface JobStatusResponse {
  success: true;
  status: JobStatus;
  total: number;
  completed: number;
  creditsUsed: number;
  expiresAt: string;
  next?: string;
  data: Document[];
  warning?: string;
  createdAt?: string;
  completedAt?: string;
  duration?: number;
  /**
   * The WARC file of a job run with `record: true` (crawlkit): complete once the job is no longer `scraping`. It
   * lives beside the store (`<storeDir>/warc/<id>.warc.gz`; the system's temporary directory for a memory store).
   */
  warcFile?: string;
}

export type CrawlStatusResponse = JobStatusResponse;
export type BatchScrapeStatusResponse = JobStatusResponse;

/** How a page of a crawl compares with its lineage's previous completed run. */
export type CrawlChange = 'new' | 'changed' | 'same' | 'removed';

/** `GET /v2/crawl/:id/changes`: the crawl's change feed, paged like a status (`next` while more entries follow). */
export interface CrawlChangesResponse {
  success: true;
  status: 'scraping' | 'completed' | 'failed' | 'cancelled';
  /** The lineage's run compared against; null for a first run. Known once the crawl completed. */
  previousCrawlId?: string | null;
  /**
   * One entry per page: stored pages in completion order, then (once completed) the pages removed. `url` is the URL
   * the page ended at (a redirect's target): a page that began to redirect is `new` at its target and `removed` at
   * its old URL.
   */
  data: { url: string; change: CrawlChange }[];
  next?: string;
}

export interface CrawlErrorsResponse {
  errors: { id: string; timestamp?: string; url: string; code?: string; error: string }[];
  robotsBlocked: string[];
}

export interface CancelResponse {
  status: 'cancelled';
}

export interface ActiveCrawlsResponse {
  success: true;
  crawls: { id: string; teamId: string; url: string; created_at: string; options: Record<string, unknown> }[];
}

export interface MapResponse {
  success: true;
  links: { url: string; title?: string; description?: string }[];
  warning?: string;
}

export interface CreditUsageResponse {
  success: true;
  data: {
    remainingCredits: number;
    planCredits: number;
    billingPeriodStart: string | null;
    billingPeriodEnd: string | null;
    creditsUsed: number;
  };
}

/** `GET /v2/team/token-usage`: model tokens, counted as credits are. */
export interface TokenUsageResponse {
  success: true;
  data: {
    remainingTokens: number;
    planTokens: number;
    billingPeriodStart: string | null;
    billingPeriodEnd: string | null;
    tokensUsed: number;
  };
}

/** `GET /v2/team/queue-status`: the engine's scrape slots. */
export interface QueueStatusResponse {
  success: true;
  /** Scrapes running or waiting for a slot. */
  jobsInQueue: number;
  activeJobsInQueue: number;
  waitingJobsInQueue: number;
  maxConcurrency: number;
  /** When the last page was scraped successfully (ISO 8601), or null. */
  mostRecentSuccess: string | null;
}

/** `GET /v2/concurrency-check`. */
export interface ConcurrencyCheckResponse {
  success: true;
  concurrency: number;
  maxConcurrency: number;
}

export type WebhookEventType =
  | 'crawl.started'
  | 'crawl.page'
  | 'crawl.completed'
  | 'crawl.failed'
  | 'batch_scrape.started'
  | 'batch_scrape.page'
  | 'batch_scrape.completed'
  | 'batch_scrape.failed';

/**
 * crawlkit's own: the body POSTed to a schedule's webhook for one change of a run (issue 41). `id` is the schedule's,
 * `jobId` the run's crawl of target `target` (its index in the schedule's `targets`).
 */
export interface ScheduleChangePayload {
  success: true;
  type: 'schedule.change';
  id: string;
  jobId: string;
  webhookId: string;
  data: [{ url: string; change: CrawlChange; target: number }];
  metadata?: Record<string, string>;
}

/** The body POSTed to a webhook (reference §16). */
export interface WebhookPayload {
  success: boolean;
  type: WebhookEventType;
  id: string;
  webhookId: string;
  data: Document[] | { metadata: { sourceURL: string } }[];
  /** What failed (a page's error, the job's failure); `null` when nothing did (the interface's payload). */
  error: string | null;
  metadata?: Record<string, string>;
}
