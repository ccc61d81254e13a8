import { InvalidOptionError } from '@crawlkit/options';
import { assertRedisUrl } from '@crawlkit/options/redis-url';
import { withinBudget } from '@crawlkit/options/within-budget';
import {
  nonNegativeInteger,
  positiveInteger,
  StoreError,
  missingSecretBox,
  secretBox,
  type SecretBox,
  type Store,
  type StoreSpace,
} from '@crawlkit/store';
import { Redis, type RedisOptions } from 'ioredis';

import { whyNotConnected } from '../errors.js';
import { Lifecycle } from './lifecycle.js';
import { RedisCounterStore } from './counters.js';
import { RedisScheduleStore } from './schedules.js';
import { RedisEngineStore } from './engines.js';
import { RedisJobStore } from './jobs.js';
import { RedisDeliveryStore } from './deliveries.js';
import { RedisHistoryStore } from './history.js';
import { RedisPageStore } from './pages.js';
import { RedisResultStore } from './results.js';
import { RedisSearchIndex } from './search.js';
import { RedisTaskStore } from './tasks.js';
import { ScriptRunner } from './scripts-runner.js';

export interface RedisStoreOptions {
  /**
   * Redis URL (`redis://[user:password@]host:port[/db]`, `rediss://` for TLS). Ignored when `client` is given.
   * @default 'redis://127.0.0.1:6379'
   */
  url?: string;
  /** An ioredis client to use instead of opening one; the store does not close it. */
  client?: Redis;
  /**
   * Prefix of every key the store writes, so several deployments can share one Redis database.
   * @default 'crawlkit'
   */
  prefix?: string;
  /**
   * Cap on the total size of cached page values, in bytes (UTF-8). A `put` that goes over it evicts the oldest pages
   * down to 90% of the cap. `Infinity` disables the cap.
   * @default 1_073_741_824 (1 GiB)
   */
  maxPageBytes?: number;
  /**
   * Entries kept per (url, tag) of the history (change-tracking snapshots, crawlkit's records); older ones are
   * dropped on `append`. crawlkit reads only the latest of each: more are kept for a reader of your own.
   * @default 1
   */
  maxHistoryPerUrl?: number;
  /**
   * Keep a search index of the pages and results stored (`store.search`): an inverted index in Redis hashes, written
   * by the same scripts as the pages and results (see `scripts/search-scripts.ts`).
   * @default true
   */
  searchIndex?: boolean;
  /**
   * Time to wait for the first connection, in milliseconds, before `createRedisStore` rejects.
   * @default 10000
   */
  connectTimeoutMs?: number;
  /**
   * Time a store command may wait for Redis, in milliseconds, connected or not (a paused server, a dropped network,
   * a restart): past it the call rejects with `REDIS_UNAVAILABLE` instead of waiting for Redis to return. Raise it
   * for a Redis far away or under heavy load.
   * @default 5000
   */
  commandTimeoutMs?: number;
  /**
   * The key that encrypts the values a job keeps for its resume (request and webhook header values): 32 random bytes
   * in base64 or hex. Every process sharing the store needs the same key; Redis never sees it. Without one, a job
   * carrying header values is refused with `STORE_SECRET_KEY_MISSING` (they are never stored in plaintext), and jobs
   * without any run as usual.
   * @default the `CRAWLKIT_SECRET_KEY` environment variable
   */
  secretKey?: string;
}

/** The environment variable a Redis store reads its `secretKey` from by default. */
export const SECRET_KEY_ENV = 'CRAWLKIT_SECRET_KEY';

/** The box of `secretKey` (or the environment's key); without either, a box that refuses to seal and says why. */
function redisSecrets(secretKey: string | undefined): SecretBox {
  const key = secretKey ?? process.env[SECRET_KEY_ENV];
  if (key !== undefined && key !== '') return secretBox(key);
  return missingSecretBox(
    'Header values of jobs are stored encrypted, and this Redis store has no key: give every process sharing it the ' +
      `same 32-byte key, as \`redis({ secretKey })\` or the ${SECRET_KEY_ENV} environment variable (base64 or hex).`,
  );
}

/** A store on Redis, shared by every process and machine that opens it with the same URL and prefix. */
export interface RedisStore extends Store {
  readonly kind: 'redis';
  /** The key prefix. */
  readonly prefix: string;
  /** The ioredis client (for diagnostics; the store owns it unless one was passed in). */
  readonly client: Redis;
}

/**
 * The connection options every client of the backend uses; with `commandTimeoutMs` (every client but the blocking
 * ones of BullMQ's workers), a command that gets no answer in time rejects.
 */
export function connectionOptions(connectTimeoutMs: number, commandTimeoutMs?: number): RedisOptions {
  return {
    lazyConnect: true,
    connectTimeout: connectTimeoutMs,
    enableAutoPipelining: true,
    ...(commandTimeoutMs !== undefined ? { commandTimeout: commandTimeoutMs } : {}),
  };
}

/**
 * Opens a store on Redis. Rejects with `STORE_OPEN_FAILED` when Redis cannot be reached within `connectTimeoutMs`,
 * and with `INVALID_OPTION` for bad options.
 */
export async function createRedisStore(options: RedisStoreOptions = {}): Promise<RedisStore> {
  const maxPageBytes = nonNegativeInteger('maxPageBytes', options.maxPageBytes, 1024 ** 3, true);
  const maxHistoryPerUrl = positiveInteger('maxHistoryPerUrl', options.maxHistoryPerUrl, 1);
  const searchIndex = options.searchIndex ?? true;
  if (typeof searchIndex !== 'boolean') {
    throw new InvalidOptionError(`Expected \`searchIndex\` to be true or false, got \`${String(searchIndex)}\`.`);
  }
  const prefix = options.prefix ?? 'crawlkit';
  if (prefix.length === 0 || prefix.includes('{')) {
    throw new InvalidOptionError(`Expected \`prefix\` to be a non-empty string without braces, got \`${prefix}\`.`);
  }
  const connectTimeoutMs = nonNegativeInteger('connectTimeoutMs', options.connectTimeoutMs, 10_000);
  const commandTimeoutMs = positiveInteger('commandTimeoutMs', options.commandTimeoutMs, 5_000);
  const secrets = redisSecrets(options.secretKey);
  const owned = options.client === undefined;
  const url = options.url ?? 'redis://127.0.0.1:6379';
  if (owned) assertRedisUrl(url);
  const client = options.client ?? new Redis(url, connectionOptions(connectTimeoutMs, commandTimeoutMs));
  if (owned) {
    // Failures surface as rejected commands; without a listener ioredis would print each reconnect error.
    client.on('error', () => undefined);
    try {
      await connect(client, connectTimeoutMs);
    } catch (cause) {
      client.disconnect();
      const message = cause instanceof Error ? cause.message : String(cause);
      throw new StoreError('STORE_OPEN_FAILED', `Cannot connect to Redis: ${message}`, { cause });
    }
  }
  const life = new Lifecycle(owned ? commandTimeoutMs : undefined);
  const lifecycleOf = (store: RedisStore) => {
    lifecycles.set(store, life);
    return store;
  };
  const redis = new ScriptRunner(client, prefix);
  return lifecycleOf({
    kind: 'redis',
    ephemeral: false,
    prefix,
    client,
    pages: new RedisPageStore(life, redis, maxPageBytes, searchIndex),
    ...(searchIndex ? { search: new RedisSearchIndex(life, redis) } : {}),
    jobs: new RedisJobStore(life, redis),
    tasks: new RedisTaskStore(life, redis, searchIndex),
    results: new RedisResultStore(life, redis),
    deliveries: new RedisDeliveryStore(life, redis),
    history: new RedisHistoryStore(life, redis, maxHistoryPerUrl),
    secrets,
    engines: new RedisEngineStore(life, redis),
    counters: new RedisCounterStore(life, redis),
    schedules: new RedisScheduleStore(life, redis),
    space: () => life.run(async () => memorySpace(await memoryInfo(client))),
    close: async () => {
      if (!life.close() || !owned) return;
      // A Redis that does not answer would hold a graceful QUIT until the command timeout.
      if (life.unavailable) client.disconnect();
      else await client.quit().catch(() => client.disconnect());
    },
  });
}

/** `INFO memory`; empty when the server refuses INFO (an ACL user, a managed Redis renaming it): no bound known. */
async function memoryInfo(client: Redis): Promise<string> {
  try {
    return await client.info('memory');
  } catch (error) {
    if (/NOPERM|unknown command/i.test(error instanceof Error ? error.message : '')) return '';
    throw error;
  }
}

/** `maxmemory` less `used_memory` from `INFO memory`, of `maxmemory`; no bound when `maxmemory` is 0 (unset). */
function memorySpace(info: string): StoreSpace {
  const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1] ?? NaN);
  const [max, used] = [field('maxmemory'), field('used_memory')];
  return max > 0 && Number.isFinite(used) ? { freeBytes: Math.max(0, max - used), totalBytes: max } : {};
}

const lifecycles = new WeakMap<RedisStore, Lifecycle>();

/**
 * The lifecycle of a store opened by `createRedisStore`: what else runs commands on its client (the backend's
 * coordination) goes through it, so that it shares the store's availability and its `REDIS_UNAVAILABLE` answers.
 */
export function storeLifecycle(store: RedisStore): Lifecycle | undefined {
  return lifecycles.get(store);
}

/** Connects, giving up after `timeoutMs` (ioredis would otherwise retry for ever). */
export async function connect(client: Redis, timeoutMs: number): Promise<void> {
  let reason: Error | undefined;
  const onError = (error: Error) => void (reason ??= error);
  client.on('error', onError);
  try {
    await withinBudget(client.connect(), timeoutMs, () => {
      throw new Error(`no connection within ${timeoutMs} ms`);
    });
  } catch (cause) {
    // ioredis rejects with "Connection is closed."; what Redis or the socket said came first as an 'error' event.
    throw reason ? new Error(whyNotConnected(reason), { cause: reason }) : cause;
  } finally {
    client.off('error', onError);
  }
  await checkDatabase(client);
}

/**
 * Selects the URL's database again and says so when Redis has none of that number: ioredis's own SELECT at connect
 * fails only as an 'error' event, and its client then goes on in database 0, where another deployment's keys may be.
 */
async function checkDatabase(client: Redis): Promise<void> {
  const db = client.options.db;
  if (db === undefined || db === 0) return;
  try {
    await client.select(db);
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    if (!/DB index is out of range/i.test(message)) throw cause;
    throw new Error(
      `Redis has no database ${db} (${message}): the URL's /${db} is past the server's \`databases\` setting ` +
        '(16 by default: 0 to 15; a managed or cluster Redis may have database 0 only): use a database it has, or ' +
        'raise `databases` in redis.conf',
      { cause },
    );
  }
}
