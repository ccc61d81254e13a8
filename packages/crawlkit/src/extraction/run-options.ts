import type { JudgeOptions } from '@crawlkit/fetcher';

import { CrawlkitError } from '../errors.js';
import type { ExtractionRequest } from './extraction.js';
import type { CallTimes } from './call-times.js';
import type { PdfProgress } from './pdf-progress.js';

export interface RunOptions {
  /** Aborts the call; a running call's worker is stopped and replaced. The call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Time the call may run once a worker has started it; past it the worker is stopped (`ExtractionCut`). */
  runLimitMs?: number;
  /** Told when a worker starts the call (it may wait in the pool's queue before). */
  onStart?: () => void;
  /** Told, once the call answered, where its time went (`DEBUG=crawlkit:timing`). */
  onTimes?: (times: CallTimes) => void;
  /** A PDF call's pages as its worker reads them: each attempt's worker gets a port of its own. */
  progress?: PdfProgress;
}

/** What the caller of a page's call is told of it. */
export type CallWatch = Pick<RunOptions, 'onStart' | 'onTimes'>;

/** Time the worker has, past a page's extraction budget, to cut it itself before it is stopped from outside. */
const CUT_GRACE_MS = 1_000;

/** The judge's `countAll` as a call carries it (absent: the judge's default). */
export function countAllOf({ countAll }: JudgeOptions): { countAll?: boolean } {
  return countAll === undefined ? {} : { countAll };
}

/**
 * The limits of a call that extracts a page: its timeout's `signal`, and its extraction budget plus a grace past
 * which the worker is stopped (a page with text then falls back to it; a PDF answers the pages its worker had read,
 * `PdfProgress`; a document, or a PDF stopped before its first page, fails: `budgetCut`).
 */
export function pageRunOptions(
  request: ExtractionRequest,
  signal: AbortSignal | undefined,
  watch: CallWatch,
): RunOptions {
  const options: RunOptions = { ...watch, ...(signal ? { signal } : {}) };
  if (request.budgetMs !== undefined) options.runLimitMs = request.budgetMs + CUT_GRACE_MS;
  return options;
}

/**
 * The error of a page stopped past its extraction budget that has no plain text to fall back to: a PDF or a document
 * whose reading does not stop by itself (pdf.js rebuilding a damaged PDF's cross-reference table runs in one go: a
 * 20 MB one took 8.3 s). `undefined` for a page with text.
 */
export function budgetCut(request: ExtractionRequest): CrawlkitError | undefined {
  if (request.page.text !== undefined || request.page.undecodedText !== undefined) return undefined;
  const what = request.page.kind === 'pdf' ? 'the PDF' : 'the document';
  return new CrawlkitError(
    'SCRAPE_DOCUMENT_TIMEOUT',
    `Reading ${what} took longer than the extraction budget (extractionBudgetMs: ${request.budgetMs} ms), and it ` +
      'was stopped; raise `extractionBudgetMs` (an engine option) for documents this large.',
  );
}
