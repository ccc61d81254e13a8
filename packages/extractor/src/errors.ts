/** Stable codes of `ExtractorError`. Match on `error.code`, never on the message. */
export type ExtractorErrorCode = 'SCRAPE_PDF_PARSE_ERROR' | 'SCRAPE_PDF_TOO_LARGE' | 'SCRAPE_DOCUMENT_ENCRYPTED';

const BRAND = Symbol.for('crawlkit.extractor-error');

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

/** True for an `ExtractorError` of any copy of this package (matches a brand, not the prototype). */
export function isExtractorError(error: unknown): error is ExtractorError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}
