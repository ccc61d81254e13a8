import { isInvalidOptionError, type InvalidOptionError } from '@crawlkit/options';
import { isStoreError, StoreError } from '@crawlkit/store';

/** Stable codes of the errors `@crawlkit/redis` throws besides the store's own (`STORE_*`). */
export type RedisBackendErrorCode = 'REDIS_UNAVAILABLE';

const BRAND = Symbol.for('crawlkit.redis-error');

/** An error of the Redis backend outside the store contract (options, connection, queue). */
export class RedisBackendError extends Error {
  readonly code: RedisBackendErrorCode;
  readonly [BRAND] = true;

  constructor(code: RedisBackendErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RedisBackendError';
    this.code = code;
  }
}

/** True for a `RedisBackendError` of any copy of this package (matches a brand, not the prototype). */
export function isRedisBackendError(error: unknown): error is RedisBackendError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}

/**
 * A Redis failure on a store path, as the store's `STORE_IO` error with the driver's error as `cause`; the store's
 * own errors and a bad option pass through as they are.
 */
export function storeIoError(cause: unknown): StoreError | InvalidOptionError {
  if (isStoreError(cause) || isInvalidOptionError(cause)) return cause;
  const message = cause instanceof Error ? cause.message : String(cause);
  return new StoreError('STORE_IO', `Redis command failed: ${message}`, { cause });
}
