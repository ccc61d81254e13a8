import { InvalidOptionError } from '@crawlkit/options';
import { assertRedisUrl } from '@crawlkit/options/redis-url';
import { positiveInteger, type BackendConnection, type CrawlkitBackend, type Store } from '@crawlkit/store';
import { Redis } from 'ioredis';

import { RedisCoordination } from './coordination.js';
import { RedisBackendError, redisFailure } from './errors.js';
import { checkEvictionPolicy } from './eviction.js';
import { checkLayout } from './layout.js';
import {
  connect,
  connectionOptions,
  createRedisStore,
  storeLifecycle,
  type RedisStoreOptions,
} from './store/redis-store.js';
import { ScriptRunner } from './store/scripts-runner.js';
import { BullWorkQueue } from './work-queue.js';

export interface RedisBackendOptions extends Omit<RedisStoreOptions, 'client'> {
  /**
   * Lock on a running scrape task, renewed while the worker is alive. A worker that dies (crash, `kill -9`) loses
   * its tasks to other workers once this lapses, in milliseconds.
   * @default 30000
   */
  taskLockMs?: number;
  /**
   * How often workers look for tasks whose lock lapsed, in milliseconds.
   * @default half of `taskLockMs`
   */
  stalledCheckMs?: number;
  /**
   * A task whose run fails (its store's writes, not its page: a page's failure is recorded) is run again, up to five
   * runs in all; this is the wait before the second run, in milliseconds, doubled before each further one.
   * @default 1000
   */
  taskRetryDelayMs?: number;
  /**
   * Go on with a Redis whose `maxmemory-policy` evicts keys. By default `connect()` refuses it
   * (`REDIS_EVICTION_POLICY`): at `maxmemory` it would drop jobs, their queued tasks and results without a word.
   * @default false
   */
  allowEviction?: boolean;
}

/** The connections of one engine to the Redis backend. */
export interface RedisBackendConnection extends BackendConnection {
  readonly store: Store;
  readonly queue: BullWorkQueue;
  readonly coordination: RedisCoordination;
  close(): Promise<void>;
}

/** A distributed backend for `new Crawlkit({ backend: redis({ url }) })`. */
export interface RedisBackend extends CrawlkitBackend {
  readonly kind: 'redis';
  /** The Redis URL (credentials included: keep it out of logs). */
  readonly url: string;
  connect(): Promise<RedisBackendConnection>;
}

/**
 * crawlkit's distributed backend on Redis: the store (jobs, tasks, results, webhook outbox, page cache, history)
 * in Redis, BullMQ as the work queue of scrape tasks, and Redis for the per-host politeness slots and locks that
 * workers share. Every process pointing at the same URL and prefix takes part.
 *
 * ```ts
 * const ck = new Crawlkit({ backend: redis({ url: 'redis://127.0.0.1:6379' }) });
 * await ck.startWorker(); // in each worker process
 * ```
 */
export function redis(options: RedisBackendOptions = {}): RedisBackend {
  const url = options.url ?? 'redis://127.0.0.1:6379';
  assertRedisUrl(url);
  const taskLockMs = positiveInteger('taskLockMs', options.taskLockMs, 30_000);
  const stalledCheckMs = positiveInteger(
    'stalledCheckMs',
    options.stalledCheckMs,
    Math.max(1, Math.floor(taskLockMs / 2)),
  );
  const taskRetryDelayMs = positiveInteger('taskRetryDelayMs', options.taskRetryDelayMs, 1_000);
  const connectTimeoutMs = positiveInteger('connectTimeoutMs', options.connectTimeoutMs, 10_000);
  const commandTimeoutMs = positiveInteger('commandTimeoutMs', options.commandTimeoutMs, 5_000);
  const prefix = options.prefix ?? 'crawlkit';
  const allowEviction = options.allowEviction ?? false;
  if (typeof allowEviction !== 'boolean') {
    throw new InvalidOptionError(`Expected \`allowEviction\` to be true or false, got \`${String(allowEviction)}\`.`);
  }
  const {
    taskLockMs: _lock,
    stalledCheckMs: _stalled,
    taskRetryDelayMs: _retry,
    allowEviction: _eviction,
    ...storeOptions
  } = options;

  /**
   * A client of the work queue. BullMQ requires clients without a per-request retry limit; the producer's gets the
   * command timeout (adding tasks never waits for a Redis that does not answer), a worker's none (its blocking calls
   * wait for tasks by design).
   */
  async function openQueueClient(commandTimeout?: number): Promise<Redis> {
    const client = new Redis(url, {
      ...connectionOptions(connectTimeoutMs, commandTimeout),
      maxRetriesPerRequest: null,
    });
    client.on('error', () => undefined);
    try {
      await connect(client, connectTimeoutMs);
    } catch (cause) {
      client.disconnect();
      const message = cause instanceof Error ? cause.message : String(cause);
      throw new RedisBackendError('REDIS_UNAVAILABLE', `Cannot connect to Redis for the work queue: ${message}`, {
        cause,
      });
    }
    return client;
  }

  return {
    kind: 'redis',
    url,
    async connect() {
      const store = await createRedisStore({ ...storeOptions, url, prefix });
      let queueClient: Redis;
      try {
        await checkEvictionPolicy(store.client, allowEviction);
        await checkLayout(store.client, prefix);
        queueClient = await openQueueClient(commandTimeoutMs);
      } catch (error) {
        await store.close();
        // A reply of Redis is classed as on every other path (an ACL user without the prefix's keys: REDIS_REFUSED,
        // saying what to grant), not left a driver error that surfaces as UNKNOWN_ERROR.
        throw redisFailure(error, commandTimeoutMs);
      }
      const queue = new BullWorkQueue(queueClient, {
        prefix,
        lockMs: taskLockMs,
        stalledCheckMs,
        retryDelayMs: taskRetryDelayMs,
        commandTimeoutMs,
        openClient: () => openQueueClient(),
      });
      const life = storeLifecycle(store);
      const coordination = new RedisCoordination(new ScriptRunner(store.client, prefix), life);
      let closed: Promise<void> | undefined;
      return {
        store,
        queue,
        coordination,
        close: () =>
          (closed ??= (async () => {
            // With Redis not answering, a graceful close would wait for it: drop the connections.
            if (life?.unavailable) queueClient.disconnect();
            await queue.close();
            if (!life?.unavailable) await queueClient.quit().catch(() => queueClient.disconnect());
            await store.close();
          })()),
      };
    },
  };
}
