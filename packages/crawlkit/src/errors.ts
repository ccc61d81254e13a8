import { httpStatusOf, isErrorCode, type CrawlkitErrorCode } from './error-codes.js';
import type { ErrorResponse } from './v2/types.js';

const BRAND = Symbol.for('crawlkit.error');

/**
 * An error of the `crawlkit` package with a stable `code`. `status` is the HTTP status the v2 API answers the code
 * with (from `ERROR_CODES`). Errors of the other packages have classes of their own; `hasCrawlkitCode` matches all.
 */
export class CrawlkitError extends Error {
  readonly code: CrawlkitErrorCode;
  readonly details?: unknown;
  readonly [BRAND] = true;

  constructor(code: CrawlkitErrorCode, message: string, options: { details?: unknown; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'CrawlkitError';
    this.code = code;
    if (options.details !== undefined) this.details = options.details;
  }

  /** The HTTP status of this error's code. */
  get status(): number {
    return httpStatusOf(this.code);
  }
}

/**
 * A bad option of `new Crawlkit()` or of any package's constructor: one error, code `INVALID_OPTION`. From its own
 * entry, which does not load zod: the extraction worker imports this module.
 */
export { InvalidOptionError, isInvalidOptionError } from '@crawlkit/options/invalid-option-error';

/** True for a `CrawlkitError` (or `CliError`) of any copy of this package (matches a brand, not the prototype). */
export function isCrawlkitError(error: unknown): error is CrawlkitError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}

/** An error of any crawlkit package: `CrawlkitError`, `FetchError`, `BrowserError`, `ActionError`, `StoreError`, … */
export interface CrawlkitCodedError {
  readonly code: CrawlkitErrorCode;
  readonly message: string;
  readonly details?: unknown;
}

/**
 * The family guard: true for any error (or error-like object) whose `code` is one of `CrawlkitErrorCode`, whichever
 * package threw it. Use `httpStatusOf(error.code)` for its status.
 */
export function hasCrawlkitCode(error: unknown): error is CrawlkitCodedError {
  return (
    typeof error === 'object' &&
    error !== null &&
    isErrorCode((error as { code?: unknown }).code) &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}

function isErrorResponse(value: unknown): value is ErrorResponse {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { success?: unknown }).success === false &&
    typeof (value as { error?: unknown }).error === 'string'
  );
}

/** Turns any thrown value into the v2 error shape; a value without a crawlkit code is `UNKNOWN_ERROR`. */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (isErrorResponse(error)) return error;
  if (hasCrawlkitCode(error)) {
    const response: ErrorResponse = { success: false, code: error.code, error: error.message };
    if (error.details !== undefined) response.details = error.details;
    return response;
  }
  const message = error instanceof Error ? error.message : String(error);
  return { success: false, code: 'UNKNOWN_ERROR', error: `An unexpected error occurred: ${message}` };
}

export function badRequest(message: string, details: unknown = []): ErrorResponse {
  return { success: false, code: 'BAD_REQUEST', error: message, details };
}
