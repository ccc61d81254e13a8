import {
  StoreCorruptError,
  type JobError,
  type ResultReadOptions,
  type ResultStore,
  type StoredResult,
} from '@crawlkit/store';

import type { Lifecycle } from './lifecycle.js';
import { rethrowNoJob } from './jobs.js';
import { type ScriptRunner } from './scripts-runner.js';
import { jobError } from './tasks.js';

/** Results fetched at once by a read bounded in characters. */
const RESULT_CHUNK = 16;

/** Results (a list of documents beside a list of their task keys), errors and robots-blocked URLs of each job. */
export class RedisResultStore implements ResultStore {
  readonly #life: Lifecycle;
  readonly #redis: ScriptRunner;

  constructor(life: Lifecycle, redis: ScriptRunner) {
    this.#life = life;
    this.#redis = redis;
  }

  list(jobId: string, skip: number, limit: number, options: ResultReadOptions = {}): Promise<StoredResult[]> {
    return this.#life.run(async () => {
      const start = Math.max(0, skip);
      const end = start + Math.max(0, limit);
      const results: StoredResult[] = [];
      const max = options.maxChars ?? Number.POSITIVE_INFINITY;
      let chars = 0;
      // In chunks, so that a read bounded in characters fetches little more of a large job than it returns.
      for (let from = start; from < end;) {
        const to = Math.min(end, from + (options.maxChars === undefined ? end - from : RESULT_CHUNK)) - 1;
        const [documents, keys] = await Promise.all([
          this.#redis.client.lrange(this.#redis.key('j', jobId, 'r'), from, to),
          this.#redis.client.lrange(this.#redis.key('j', jobId, 'rk'), from, to),
        ]);
        for (const [i, document] of documents.entries()) {
          if (results.length > 0 && chars + document.length > max) return results;
          chars += document.length;
          results.push({ seq: from + i + 1, key: keys[i] ?? '', document });
        }
        if (documents.length < to - from + 1) break;
        from = to + 1;
      }
      return results;
    });
  }

  since(jobId: string, afterSeq: number, limit: number, options?: ResultReadOptions): Promise<StoredResult[]> {
    // Result seqs are 1, 2, 3, ... so the result after `afterSeq` sits at index `afterSeq`.
    return this.list(jobId, afterSeq, limit, options);
  }

  count(jobId: string): Promise<number> {
    return this.#life.run(() => this.#redis.client.llen(this.#redis.key('j', jobId, 'r')));
  }

  errors(jobId: string, limit?: number): Promise<JobError[]> {
    return this.#life.run(async () => {
      if (limit !== undefined && limit <= 0) return [];
      const last = limit === undefined ? -1 : limit - 1;
      const entries = await this.#redis.client.lrange(this.#redis.key('j', jobId, 'e'), 0, last);
      return entries.map(parseJobError);
    });
  }

  errorCount(jobId: string): Promise<number> {
    return this.#life.run(() => this.#redis.client.llen(this.#redis.key('j', jobId, 'e')));
  }

  addError(jobId: string, error: { url: string; code?: string; error: string }): Promise<void> {
    return this.#life.run(async () => {
      try {
        await this.#redis.run('RESULT_ADD_ERROR', jobId, JSON.stringify(jobError(error, Date.now())));
      } catch (cause) {
        rethrowNoJob(cause, jobId);
      }
    });
  }

  addRobotsBlocked(jobId: string, url: string): Promise<void> {
    return this.#life.run(async () => {
      try {
        await this.#redis.run('RESULT_ADD_ROBOTS', jobId, url);
      } catch (cause) {
        rethrowNoJob(cause, jobId);
      }
    });
  }

  robotsBlocked(jobId: string): Promise<string[]> {
    return this.#life.run(() => this.#redis.client.lrange(this.#redis.key('j', jobId, 'rb'), 0, -1));
  }
}

/** A job error as `jobError` wrote it; `STORE_CORRUPT` when the entry is not one. */
function parseJobError(entry: string): JobError {
  const value: unknown = JSON.parse(entry);
  const e = value as Partial<JobError> | null;
  if (!e || typeof e.id !== 'string' || typeof e.url !== 'string' || typeof e.error !== 'string') {
    throw new StoreCorruptError(`A job error in Redis is not one: ${entry.slice(0, 80)}`);
  }
  if (typeof e.timestamp !== 'number')
    throw new StoreCorruptError(`A job error in Redis has no timestamp: ${entry.slice(0, 80)}`);
  return value as JobError;
}
