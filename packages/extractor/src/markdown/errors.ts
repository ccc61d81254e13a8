/** The code of `MarkdownBudgetError`. */
export type MarkdownBudgetErrorCode = 'MARKDOWN_BUDGET_EXCEEDED';

const BRAND = Symbol.for('crawlkit.markdown-budget-error');

/** Thrown when a conversion passes its `deadline`; the caller falls back to plain text. */
export class MarkdownBudgetError extends Error {
  readonly code: MarkdownBudgetErrorCode = 'MARKDOWN_BUDGET_EXCEEDED';
  readonly [BRAND] = true;

  constructor(message = 'HTML to markdown conversion exceeded its time budget', options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'MarkdownBudgetError';
  }
}

/** True for a `MarkdownBudgetError` of any copy of this package (matches a brand, not the prototype). */
export function isMarkdownBudgetError(error: unknown): error is MarkdownBudgetError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}
