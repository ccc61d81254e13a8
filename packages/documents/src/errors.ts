/** Stable codes of `DocumentError`. Match on `error.code`, never on the message. */
export type DocumentErrorCode =
  | 'SCRAPE_DOCUMENT_PARSE_ERROR'
  | 'SCRAPE_DOCUMENT_ENCRYPTED'
  | 'SCRAPE_DOCUMENT_TOO_LARGE'
  | 'SCRAPE_DOCUMENT_XML_ENTITIES'
  | 'SCRAPE_DOCUMENT_TIMEOUT'
  | 'SCRAPE_DOCUMENT_READER_MISSING'
  | 'SCRAPE_OCR_FAILED'
  | 'SCRAPE_OCR_DATA_MISSING';

const BRAND = Symbol.for('crawlkit.document-error');

/** A document that could not be converted, with a stable `code`. */
export class DocumentError extends Error {
  readonly code: DocumentErrorCode;
  readonly [BRAND] = true;

  constructor(code: DocumentErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'DocumentError';
    this.code = code;
  }
}

/** True for a `DocumentError` of any copy of this package (matches a brand, not the prototype). */
export function isDocumentError(error: unknown): error is DocumentError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}

/**
 * The error of a conversion whose deadline passed before anything could be returned. It names the `deadline` option
 * of this package; crawlkit tells its own (`extractionBudgetMs`) instead.
 */
export function deadlineError(what: string): DocumentError {
  return new DocumentError(
    'SCRAPE_DOCUMENT_TIMEOUT',
    `Converting the ${what} took longer than its \`deadline\` allowed; set a later one for documents this large.`,
  );
}
