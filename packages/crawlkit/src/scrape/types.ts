/** The types of one page scrape, shared by the scrape path and the job runners. */
import type { SearchText } from '@crawlkit/store';
import type { ScrapeOptions } from '../v2/scrape-options.js';
import type { Document, ErrorResponse } from '../v2/types.js';
import type { DocumentWarning } from './error-page.js';
import type { StageEnd } from './scrape-state.js';

/** What one scrape needs: the options plus the URL, already validated and defaulted. */
export type PageScrapeRequest = ScrapeOptions & { url: string };

/** The `timeout` of a page: its request's, else the engine's `timeoutMs`. */
export function pageTimeoutMs(request: { timeout?: number | undefined }, defaultMs: number): number {
  return request.timeout ?? defaultMs;
}

export interface PageScrapeContext {
  /** `metadata.sourceURL`: the URL exactly as the caller sent it (user info removed in the document). */
  sourceURL: string;
  zeroDataRetention: boolean;
  signal?: AbortSignal;
  /** Set for pages of a crawl or batch job. */
  jobId?: string;
  /** Also return every link of the whole page (for crawl discovery), whatever the formats. */
  collectLinks?: boolean;
  /**
   * Extract the main content as markdown whatever the formats, and answer its hash (`contentHash`): a crawl's change
   * feed compares it, and a crawl folds copies of a page by it.
   */
  hashContent?: boolean;
  /**
   * The page's time already spent before this scrape's work: a direct scrape's wait for its slot, or a job's earlier
   * attempts of the page (it fetches a page again after a dropped connection or a 429/503), back-off waits included.
   * The page's `timeout` bounds them all, so this scrape has the rest.
   * @default 0
   */
  spentMs?: number;
}

/** How one page's scrape ended: its document, or its failure in the v2 error shape. */
export type PageScrapeOutcome =
  | {
      success: true;
      document: Document;
      credits: number;
      /** Links of the whole page, when `collectLinks` was set. */
      links?: string[];
      /** The response's `Retry-After` header, if any. */
      retryAfter?: string;
      /** The page's `rel=canonical` URL (the first its head names), when it names one. */
      canonical?: string;
      /**
       * The hash of the page's main content (`mainContentHash`), when `hashContent` was set and the page has some:
       * change tracking compares it with the last run.
       */
      contentHash?: string;
      /**
       * With `contentHash`, on a page naming a canonical: the hash a crawl folds the page into its canonical by
       * (`foldHash`: without counters and relative times).
       */
      foldHash?: string;
      /** What the fetch showed about the page's engine (absent for a cache hit), for `EngineLearning`. */
      engineEvidence?: 'http' | 'browser';
      /** The page's text for the search index, when the engine's store keeps one (a job indexes its result). */
      search?: SearchText;
      /** The page's time this attempt took (`Deadline.usedMs`): a job that fetches it again counts it. */
      pageMs?: number;
      /** The parts of `document.warning` in order, coded where they have a code (a job finds the error page's note). */
      warnings?: readonly DocumentWarning[];
    }
  | {
      success: false;
      error: ErrorResponse;
      /** The HTTP status of `error.code` (`httpStatusOf`). */
      status: number;
      /** The site dropped the connection (`FetchError.dropped`): a job fetches the page again. */
      dropped?: true;
      /** The page's time this attempt took (`Deadline.usedMs`): a job that fetches it again counts it. */
      pageMs?: number;
    };

/** How a scrape ended: the page's outcome, or a stage that gave the page back to its job (`StageEnd`). */
export type ScrapeOutcome = PageScrapeOutcome | StageEnd;
