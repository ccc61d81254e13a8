/**
 * The one value a scrape passes from stage to stage: the request and its context, the deadline, and what each stage
 * added (the cache visit, the fetched page, its extraction, the document). Each stage reads what the stages before it
 * set and sets its own part.
 */
import type { PageAnswer } from '@crawlkit/fetcher';
import type { SearchText, Store } from '@crawlkit/store';
import type { ExtractionWarning } from '@crawlkit/extractor/page-warnings';

import type { EngineContext } from '../context.js';
import type { Extraction, ExtractionInput } from '../extraction/extraction.js';
import type { BrandingCapture } from '../formats/branding.js';
import { addUsage, emptyUsage, type LlmUsage } from '../llm/generate.js';
import type { Document } from '../v2/types.js';
import type { Deadline } from './deadline.js';
import type { FetchedPage } from './fetched-page.js';
import type { StoredCachePolicy } from './revalidation.js';
import type { StageTimings } from './timings.js';
import type { PageScrapeContext, PageScrapeRequest } from './types.js';

/** The page cache as this scrape uses it. */
export interface CacheVisit {
  /** The cache key: the page's identity plus everything that changes what a fetch returns. */
  key: string;
  /** Whether a cached page may answer (the request and its formats allow it). */
  readable: boolean;
  /**
   * Not `readable`, but a cached copy may answer once the site confirms it (a `304` to a conditional refetch): for a
   * format that needs a fresh page and takes a confirmed one (change tracking), and for a crawl's change feed.
   */
  revalidateOnly?: boolean;
  /** Whether the page fetched may be written (the request and its formats allow it). */
  writable: boolean;
  /**
   * `hit` when a cached page answered, `miss` when the cache was read and had none (or none young enough),
   * `revalidated` when a copy past `maxAge` answered after the site said `304 Not Modified`; absent when not read.
   */
  state?: 'hit' | 'miss' | 'revalidated';
  /** When the page served was cached (a hit), confirmed (revalidated), or written (a fetch). */
  cachedAt?: number;
  /** The stored size of the entry read or written: with `cachedAt`, the version the memo keeps extractions of. */
  length?: number;
  /** Revalidated with the validators it had: the stored entry stands as it is, with a new `cachedAt`. */
  unchanged?: boolean;
  /** Where the extraction of the copy served is kept (`stored-extraction.ts`), as the extraction stage found it. */
  keptKey?: string;
}

/** A cached copy past `maxAge` whose validators the fetch sends: a `304 Not Modified` serves it again. */
export interface Revalidation {
  /** The copy, as the page cache keeps it. */
  page: FetchedPage;
  policy: StoredCachePolicy;
  /** The conditional headers (`If-None-Match`, `If-Modified-Since`). */
  headers: Record<string, string>;
  /** The copy's version (its `cachedAt` and stored length), whose memoised extractions a confirmation keeps. */
  cachedAt: number;
  length: number;
}

/** What a job's engine learning told about the page's host, for the fetch. */
export interface EngineAdvice {
  /** The host's pages need the browser: skip the HTTP attempt. */
  hostNeeds?: 'browser';
  /** Fetch this page both ways and report what it showed. */
  checkEngines?: boolean;
}

/** What formats take out of the fetched page before it is cached (`FormatModule.afterFetch`). */
export interface FormatCaptures {
  branding?: BrandingCapture;
}

export interface ScrapeState {
  readonly ctx: EngineContext;
  readonly request: PageScrapeRequest;
  readonly context: PageScrapeContext;
  readonly deadline: Deadline;
  /** Aborted by the deadline or by the caller. */
  readonly signal: AbortSignal;
  readonly timings: StageTimings;
  /** The request's URL normalised (cache key, history). */
  readonly normalizedUrl: string;
  /** The store the page cache and history of this scrape live in; none with zero data retention. */
  readonly store: Store | undefined;
  readonly cache: CacheVisit;
  /**
   * Called by the engine right before the page's request leaves (`PageRequest.onRequestStart`): a job's host slot
   * counts its spacing from then.
   */
  onRequestStart?: () => void;
  /** Called by the engine with the page's answer, before it is judged or extracted (`PageRequest.onAnswer`). */
  onAnswer?: (answer: PageAnswer) => void;
  /**
   * Set (with `Deadline.holdBack`) when the request was held back as it left: the scrape ends `deferred` by this
   * many milliseconds, having sent nothing.
   */
  heldBackMs?: number;
  /** What the job learned about the page's host (set by its engine-learning stage, read by the fetch). */
  engineAdvice?: EngineAdvice;
  /** A stale cached copy the fetch asks the site to confirm (set by the cache lookup). */
  revalidation?: Revalidation;
  /** The page, from the cache or fetched. */
  page?: FetchedPage;
  /** The extraction the render judge made of the very page fetched (it judged and extracted it in one call). */
  judgedExtraction?: Extraction;
  /** What the fetch showed about the page's host (absent for a cache hit), for a job's engine learning. */
  engineEvidence?: 'http' | 'browser';
  /** What the extraction worker reads of the page. */
  input?: ExtractionInput;
  extraction?: Extraction;
  /**
   * `contentHash` of the extraction's markdown when it is known without hashing it: kept with its extraction in the
   * store (read back, or just written). The change feed compares it.
   */
  contentHash?: string;
  /**
   * Set by the `changeTracking` format when the page as fetched and the options that shape its markdown are those of
   * its last version kept: the change feed then reads the page `same` whatever its markdown's hash (an upgrade's
   * extractor, `formats/snapshot-source.ts`).
   */
  sourceUnchanged?: true;
  /** Set by the extraction when the page got the soft-404 warning: it reads as gone (`scrapeReadsGone`). */
  softNotFound?: true;
  readonly captures: FormatCaptures;
  document?: Document;
  /** The page's text for the store's search index (absent when the store keeps none). */
  searchText?: SearchText;
  /** Notes for the document's `warning`, in order (the extractor's page warnings with their code). */
  readonly warnings: ExtractionWarning[];
  /** Tokens the model calls of the formats used. */
  llmUsage?: LlmUsage;
}

/** The state once the page is known. */
export type FetchedState = ScrapeState & { page: FetchedPage };

/** The state once the page is extracted and its document started: what formats produce their fields from. */
export type ExtractedState = FetchedState & { extraction: Extraction; input: ExtractionInput; document: Document };

/**
 * Whether the page may go to the configured language model: there is one, and the request keeps no zero data retention
 * (the model's provider may keep what it is sent). A format that can do without the model does so otherwise.
 */
export function mayAskModel(state: ScrapeState): boolean {
  return state.ctx.llm.configured && !state.context.zeroDataRetention;
}

/** Adds a model call's tokens to the page's `metadata.llmUsage`. */
export function addModelUsage(state: ScrapeState, usage: LlmUsage): void {
  state.llmUsage = addUsage(state.llmUsage ?? emptyUsage(), usage);
}

/** Adds warnings not already given. */
export function pushWarnings(state: ScrapeState, warnings: readonly string[]): void {
  for (const warning of warnings) if (!state.warnings.includes(warning)) state.warnings.push(warning);
}

/** How a stage ended the scrape early, when the job that runs it must take the page back (no failure). */
export type StageEnd =
  /** The page's host is not free yet: try again in `retryInMs`. */
  | { kind: 'deferred'; retryInMs: number }
  /** The page's task was dropped meanwhile (its job cancelled). */
  | { kind: 'dropped' };

/** One step of a scrape. */
export interface ScrapeStage {
  readonly name: string;
  /**
   * Whose failure a rejection of the stage is: the page's (answered in the v2 error shape) or the caller's (a job's
   * store failing is no failure of the page: the scrape rejects with it).
   * @default 'page'
   */
  readonly failures?: 'page' | 'caller';
  /** Whether the stage's time counts toward the page's `timeout`. @default true */
  readonly timed?: boolean;
  run(state: ScrapeState): StageEnd | undefined | void | Promise<StageEnd | undefined | void>;
}
