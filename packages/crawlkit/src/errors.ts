import type { ErrorResponse } from './v2/types.js';

/** Stable error codes of crawlkit's own failures (fetch and extraction errors keep their package codes). */
export type CrawlkitErrorCode =
  | 'BAD_REQUEST'
  | 'JOB_NOT_FOUND'
  | 'JOB_ALREADY_COMPLETED'
  | 'JOB_EXPIRED'
  | 'SCRAPE_TIMEOUT'
  | 'SCRAPE_NO_CACHED_DATA'
  | 'SCRAPE_UNSUPPORTED_FILE_ERROR'
  | 'SCRAPE_BRANDING_NOT_SUPPORTED'
  | 'LLM_NOT_CONFIGURED'
  | 'LLM_REQUEST_FAILED'
  | 'LLM_EXTRACTION_FAILED'
  | 'CRAWL_PROMPT_FAILED'
  | 'ENGINE_CLOSED'
  | 'BACKEND_REQUIRED'
  | 'UNKNOWN_ERROR';

const BRAND = Symbol.for('crawlkit.error');

/** An error of crawlkit with a stable `code`; `status` is the HTTP status the v2 API would answer with. */
export class CrawlkitError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details?: unknown;
  readonly [BRAND] = true;

  constructor(
    code: CrawlkitErrorCode | (string & {}),
    message: string,
    options: { status?: number; details?: unknown; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'CrawlkitError';
    this.code = code;
    this.status = options.status ?? 500;
    this.details = options.details;
  }
}

export function isCrawlkitError(error: unknown): error is CrawlkitError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}

/** Anything with a string `code` and `message`: errors of every crawlkit package qualify. */
function hasCode(error: unknown): error is { code: string; message: string; details?: unknown } {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
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

/** Turns any thrown value into the v2 error shape. */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (isErrorResponse(error)) return error;
  if (hasCode(error)) {
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
