const BRAND = Symbol.for('crawlkit.server.error');

/** Codes of `@crawlkit/server` (each has its row, with its HTTP status, in crawlkit's `ERROR_CODES`). */
export type ServerErrorCode = 'SERVER_INVALID_OPTION';

/** An option of the HTTP server that cannot be used, thrown by `startServer`. */
export class ServerError extends Error {
  readonly code: ServerErrorCode;
  readonly [BRAND] = true;

  constructor(code: ServerErrorCode, message: string) {
    super(message);
    this.name = 'ServerError';
    this.code = code;
  }
}

/** True for a `ServerError` of any copy of this package. */
export function isServerError(error: unknown): error is ServerError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}
