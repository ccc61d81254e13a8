import { isInvalidOptionError, type InvalidOptionError } from '@crawlkit/options';
import { isStoreError, StoreError } from '@crawlkit/store';

/** Stable codes of the errors `@crawlkit/redis` throws besides the store's own (`STORE_*`). */
export type RedisBackendErrorCode = 'REDIS_UNAVAILABLE' | 'REDIS_REFUSED' | 'REDIS_EVICTION_POLICY';

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
 * Prefixes of Redis error replies for a state of the server that passes, or that the operator fixes on the server
 * without touching crawlkit: out of memory under `noeviction` (`OOM`), a script or load in progress (`BUSY`,
 * `LOADING`), snapshots failing (`MISCONF`), a replica or cluster in transition (`READONLY`, `MASTERDOWN`, `TRYAGAIN`,
 * `CLUSTERDOWN`, `NOREPLICAS`), or too many clients (`ERR max number of clients reached`). A reply without a known
 * prefix is taken as passing too. Redis before 7 wraps the reply of a command in a script as `ERR Error running
 * script … -OOM …`: the prefix is looked for after a `-` too.
 */
const PASSING =
  /(?:^|-)(?:OOM|BUSY|LOADING|MISCONF|READONLY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN|NOREPLICAS)\b|^ERR max number of clients/;
/**
 * Prefixes of replies that refuse the command itself, so that trying again meets the same answer: the URL's user may
 * not run it or touch its keys (`NOPERM`; `ERR … can't access …` from a script), a key of the prefix holds another
 * program's value (`WRONGTYPE`), a script error or an unknown command (`ERR`), a command this deployment cannot run
 * (`CROSSSLOT`, `NOSCRIPT`, `EXECABORT`).
 */
const REFUSED = /^(NOPERM|WRONGTYPE|ERR|CROSSSLOT|NOSCRIPT|EXECABORT)\b/;

/** What the operator changes for a refused command, by its reply. */
function refusalFix(message: string): string {
  if (/^NOPERM\b|can't access|no permissions/i.test(message)) {
    return "the Redis user of the URL lacks a command or key crawlkit uses: give it every command on the prefix's keys (ACL SETUSER <user> +@all ~<prefix>:*)";
  }
  if (message.startsWith('WRONGTYPE')) {
    return "a key under crawlkit's prefix holds another program's value: give this deployment its own --redis-prefix or database";
  }
  if (/unknown command/i.test(message)) {
    return 'the server lacks a command crawlkit uses (renamed, or a Redis older than 6.2): use Redis 6.2 or later with every command';
  }
  return 'report it with the message: crawlkit sent a command this Redis refuses';
}

/** What the operator does about a passing state of the server, by its reply; crawlkit retries meanwhile. */
function passingFix(message: string): string {
  if (/(?:^|-)OOM\b/.test(message)) {
    return 'Redis is at its maxmemory and refuses writes (maxmemory-policy noeviction): raise maxmemory (CONFIG SET maxmemory, and in redis.conf) or free memory (lower jobResultTtlMs, keep fewer formats, delete finished jobs)';
  }
  if (/(?:^|-)BUSY\b/.test(message)) {
    return 'a script or module command holds Redis: it answers once that ends (SCRIPT KILL stops a script that wrote nothing)';
  }
  if (/(?:^|-)LOADING\b/.test(message)) return 'Redis is loading its data set into memory: it answers once loaded';
  if (/(?:^|-)MISCONF\b/.test(message)) {
    return 'Redis refuses writes because its last snapshot failed: see its log (disk full, permissions) and fix what stops the snapshot';
  }
  if (/^ERR max number of clients/.test(message)) {
    return 'Redis has as many clients as its maxclients: raise maxclients (CONFIG SET maxclients) or close other clients';
  }
  return 'crawlkit retries until Redis takes the command: check the server (a replica or a cluster in transition: point the URL at the primary)';
}

/** Whether a Redis reply refuses the command for good (see `REFUSED`), as opposed to a passing state of the server. */
export function isRefusal(message: string): boolean {
  return REFUSED.test(message) && !PASSING.test(message);
}

/**
 * A Redis failure on a store or queue path: `REDIS_UNAVAILABLE` when the server did not answer within
 * `commandTimeoutMs` or cannot be reached (so a call answers in time, and says so, instead of waiting for Redis to
 * return); `REDIS_REFUSED` when Redis refused the command for good (`isRefusal`: its message says what to fix);
 * else the store's `STORE_IO` (out of memory and other passing states: worth retrying; its message says what the
 * operator does). The driver's error is the `cause`.
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
  if (isRefusal(message)) {
    return new RedisBackendError('REDIS_REFUSED', `Redis refused a command (${message}): ${refusalFix(message)}`, {
      cause,
    });
  }
  return new StoreError('STORE_IO', `Redis command failed: ${message.replace(/\.\s*$/, '')}; ${passingFix(message)}`, {
    cause,
  });
}

/**
 * Why a connection to Redis failed, from the first error its client met, with what to do for the usual ones: a
 * password missing (`NOAUTH`) or refused (`WRONGPASS`), another kind of server at the address (a reply that is not
 * Redis's protocol), nothing listening (`ECONNREFUSED`), a host name that does not resolve (`ENOTFOUND`).
 */
export function whyNotConnected(error: Error): string {
  const { message } = error;
  if (message.startsWith('NOAUTH')) {
    return 'Redis needs a password (NOAUTH): give it in the URL, redis://:<password>@host:port (redis://<user>:<password>@host:port for an ACL user)';
  }
  if (message.startsWith('WRONGPASS')) {
    return 'Redis refused the user or password of the URL (WRONGPASS): check them, redis://:<password>@host:port (redis://<user>:<password>@host:port for an ACL user)';
  }
  if (/Unknown RESP type|Protocol error/i.test(message)) {
    // ioredis's words for a reply that is not Redis's protocol ("... Please report this." is meant for its authors).
    return `the server at that address does not answer as Redis (${message.replace(/\s*Please report this\.?$/, '')}): check the URL's host and port, which may be another service's (an HTTP server answers "H")`;
  }
  const code = (error as { code?: unknown }).code;
  if (code === 'ECONNREFUSED') return `${message}: is redis-server running at that address?`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `${message}: the URL's host name does not resolve from this machine: check its spelling, or give the server's address`;
  }
  return message;
}
