export type ExtractorErrorCode = 'SCRAPE_PDF_PARSE_ERROR' | 'EXTRACTION_BUDGET_EXCEEDED';

const BRAND = Symbol.for('crawlkit.error');

/** An extraction failure with a stable `code`. */
export class ExtractorError extends Error {
  readonly code: ExtractorErrorCode;
  readonly [BRAND] = true;

  constructor(code: ExtractorErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ExtractorError';
    this.code = code;
  }
}
