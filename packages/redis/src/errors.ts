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
 * Messages and codes of ioredis and Node for a server that does not answer or cannot be reached: a command past the
 * client's `commandTimeout`, a closed or refused connection, reconnect attempts exhausted.
 */
const UNREACHABLE =
  /Command timed out|Redis is still not answering|Connection is closed|max retries per request|Stream isn't writeable|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH/i;

/** What a command meets while Redis is known not to answer (its last command timed out). */
export const STILL_DOWN = 'Redis is still not answering (its last command timed out)';

/** Whether a driver error means Redis did not answer or cannot be reached (rather than a refused command). */
export function isUnreachable(cause: unknown): boolean {
  if (!(cause instanceof Error)) return false;
  const code = (cause as { code?: unknown }).code;
  return UNREACHABLE.test(cause.message) || (typeof code === 'string' && UNREACHABLE.test(code));
}

/**
 * A Redis failure on a store or queue path: `REDIS_UNAVAILABLE` when the server did not answer within
 * `commandTimeoutMs` or cannot be reached (so a call answers in time, and says so, instead of waiting for Redis to
 * return), else the store's `STORE_IO`; the driver's error is the `cause`.
 */
export function redisFailure(
  cause: unknown,
  commandTimeoutMs?: number,
): StoreError | RedisBackendError | InvalidOptionError {
  // The store's own errors, a bad option and an outage already said pass through as they are.
  if (isStoreError(cause) || isRedisBackendError(cause) || isInvalidOptionError(cause)) return cause;
  const message = cause instanceof Error ? cause.message : String(cause);
  if (isUnreachable(cause)) {
    const what =
      message === 'Command timed out'
        ? `Redis did not answer within ${commandTimeoutMs ?? 'the command timeout of'} ms`
        : message === STILL_DOWN
          ? message
          : `Redis cannot be reached (${message})`;
    return new RedisBackendError(
      'REDIS_UNAVAILABLE',
      `${what}: is it down, paused or out of reach? The call can be retried once it answers again.`,
      { cause },
    );
  }
  return new StoreError('STORE_IO', `Redis command failed: ${message}`, { cause });
}

/**
 * Why a connection to Redis failed, from the first error its client met, with what to do for the usual ones: a
 * password missing (`NOAUTH`) or refused (`WRONGPASS`), nothing listening (`ECONNREFUSED`).
 */
export function whyNotConnected(error: Error): string {
  const { message } = error;
  if (message.startsWith('NOAUTH')) {
    return 'Redis needs a password (NOAUTH): give it in the URL, redis://:<password>@host:port (redis://<user>:<password>@host:port for an ACL user)';
  }
  if (message.startsWith('WRONGPASS')) {
    return 'Redis refused the user or password of the URL (WRONGPASS): check them, redis://:<password>@host:port (redis://<user>:<password>@host:port for an ACL user)';
  }
  if ((error as { code?: unknown }).code === 'ECONNREFUSED')
    return `${message}: is redis-server running at that address?`;
  return message;
}
