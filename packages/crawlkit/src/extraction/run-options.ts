import type { JudgeOptions } from '@crawlkit/fetcher';

import type { ExtractionRequest } from './extraction.js';
import type { CallWatch, RunOptions } from './pool.js';

/** Time the worker has, past a page's extraction budget, to cut it itself before it is stopped from outside. */
const CUT_GRACE_MS = 1_000;

/** The judge's `countAll` as a call carries it (absent: the judge's default). */
export function countAllOf({ countAll }: JudgeOptions): { countAll?: boolean } {
  return countAll === undefined ? {} : { countAll };
}

/**
 * The limits of a call that extracts a page: its timeout's `signal`, and its extraction budget plus a grace past
 * which the worker is stopped. A PDF has no plain text to fall back to: only the timeout bounds it.
 */
export function pageRunOptions(
  request: ExtractionRequest,
  signal: AbortSignal | undefined,
  watch: CallWatch,
): RunOptions {
  const options: RunOptions = { ...watch, ...(signal ? { signal } : {}) };
  const text = request.page.text !== undefined || request.page.undecodedText !== undefined;
  if (request.budgetMs !== undefined && text) options.runLimitMs = request.budgetMs + CUT_GRACE_MS;
  return options;
}
