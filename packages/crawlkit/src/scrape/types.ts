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
