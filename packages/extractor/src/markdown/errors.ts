const BRAND = Symbol.for('crawlkit.error');

/** Thrown when a conversion passes its `deadline`; the caller falls back to plain text. */
export class MarkdownBudgetError extends Error {
  readonly code = 'MARKDOWN_BUDGET_EXCEEDED' as const;
  readonly [BRAND] = true;

  constructor(message = 'HTML to markdown conversion exceeded its time budget', options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'MarkdownBudgetError';
  }
}
