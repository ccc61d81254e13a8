/** The types of one page scrape, shared by the scrape path, its post-processing and the job runners. */
import type { EngineAdvice } from '../jobs/engine-learning.js';
import type { ScrapeOptions } from '../v2/scrape-options.js';
import type { Document, ErrorResponse } from '../v2/types.js';

/** What one scrape needs: the options plus the URL, already validated and defaulted. */
export type PageScrapeRequest = ScrapeOptions & { url: string };

export interface PageScrapeContext {
  /** `metadata.sourceURL`: the URL exactly as the caller sent it (user info removed in the document). */
  sourceURL: string;
  zeroDataRetention: boolean;
  signal?: AbortSignal;
  /** Set for pages of a crawl or batch job. */
  jobId?: string;
  /** Also return every link of the whole page (for crawl discovery), whatever the formats. */
  collectLinks?: boolean;
  /** What the job learned about the page's host (`EngineLearning`). */
  engine?: EngineAdvice;
  /**
   * Paces the scrape: runs after the page cache was read, right before the page is fetched or its cached copy used.
   * A job takes its host's slot here (`delay`, robots `Crawl-delay`), so the spacing the server sees is the spacing
   * of the slots, with no cache round trip between the two. It may throw `ScrapeDeferred` (or fail, as the job's store
   * may); the scrape then stops and rejects with that error. Its time does not count toward `timeout`.
   * @default none
   */
  pace?: () => Promise<void>;
}

/** Thrown by `pace`: the page is not fetched now; the job puts its task back. */
export class ScrapeDeferred extends Error {
  /** The milliseconds to wait before trying the task again, or `dropped` (its job was cancelled). */
  readonly until: number | 'dropped';

  constructor(until: number | 'dropped') {
    super(until === 'dropped' ? 'The task was dropped before its fetch.' : `The fetch waits ${until} ms for its host.`);
    this.name = 'ScrapeDeferred';
    this.until = until;
  }
}

export type PageScrapeOutcome =
  | {
      success: true;
      document: Document;
      credits: number;
      /** Links of the whole page, when `collectLinks` was set. */
      links?: string[];
      /** The response's `Retry-After` header, if any. */
      retryAfter?: string;
      /** The page's `rel=canonical` URL, when `collectLinks` was set. */
      canonical?: string;
      /** What the fetch showed about the page's engine (absent for a cache hit), for `EngineLearning`. */
      engineEvidence?: 'http' | 'browser';
    }
  | { success: false; error: ErrorResponse; /** The HTTP status of `error.code` (`httpStatusOf`). */ status: number };
