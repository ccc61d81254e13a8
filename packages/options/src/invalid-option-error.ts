const BRAND = Symbol.for('crawlkit.invalid-option-error');

/**
 * A bad option of a constructor or factory of any crawlkit package (`new Crawlkit()`, `new Fetcher()`,
 * `createSqliteStore()`, `redis()`, `startServer()`): an unknown key, a wrong type or a value out of range. A
 * `TypeError`, as Node throws for bad arguments, with the stable code `INVALID_OPTION`. The message names every bad
 * option by its path; `details` holds each problem found.
 */
export class InvalidOptionError extends TypeError {
  readonly code = 'INVALID_OPTION' as const;
  readonly details?: unknown;
  readonly [BRAND] = true;

  constructor(message: string, options: { details?: unknown } = {}) {
    super(message);
    this.name = 'InvalidOptionError';
    if (options.details !== undefined) this.details = options.details;
  }
}

/** True for an `InvalidOptionError` of any copy of any crawlkit package. */
export function isInvalidOptionError(error: unknown): error is InvalidOptionError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}
