import { StoreError } from '@crawlkit/store';

/** Stable codes of the errors `@crawlkit/redis` throws besides the store's own (`STORE_*`). */
export type RedisBackendErrorCode = 'REDIS_INVALID_OPTION' | 'REDIS_UNAVAILABLE';

/** An error of the Redis backend outside the store contract (options, connection, queue). */
export class RedisBackendError extends Error {
  readonly code: RedisBackendErrorCode;

  constructor(code: RedisBackendErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RedisBackendError';
    this.code = code;
  }
}

/** A Redis failure on a store path, as the store's `STORE_IO` error with the driver's error as `cause`. */
export function storeIoError(cause: unknown): StoreError {
  if (cause instanceof StoreError) return cause;
  const message = cause instanceof Error ? cause.message : String(cause);
  return new StoreError('STORE_IO', `Redis command failed: ${message}`, { cause });
}
