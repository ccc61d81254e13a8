/**
 * The two ways a job's tasks run, for tests that must hold on both: the embedded store (SQLite) with the jobs run
 * in-process, and Redis with the jobs run by a separate worker engine (its own connections, as another process would
 * have) while the submitting engine only submits and reads.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { redis } from '@crawlkit/redis';
import { Crawlkit, type CrawlkitOptions, type ErrorResponse } from 'crawlkit';

export interface JobBackend {
  /** The engine tests submit to and read from (a new one after `restartRunner()` in-process). */
  readonly client: Crawlkit;
  /**
   * Closes the engine that runs the job's pages, whatever it is doing, and starts a fresh one on the same store,
   * which carries the unfinished jobs on.
   */
  restartRunner(): Promise<void>;
  close(): Promise<void>;
}

export type JobBackendOptions = Pick<CrawlkitOptions, 'webhooks' | 'jobs'>;

export type JobBackendFactory = (options?: JobBackendOptions) => Promise<JobBackend>;

const embedded: JobBackendFactory = (options = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'ck-jobs-embedded-'));
  const open = (resumeJobs: boolean) => new Crawlkit({ storeDir: dir, engine: 'http', resumeJobs, ...options });
  let client = open(false);
  return Promise.resolve({
    get client() {
      return client;
    },
    restartRunner: async () => {
      await client.close();
      client = open(true);
    },
    close: async () => {
      await client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
};

function onRedis(redisUrl: string): JobBackendFactory {
  return async (options = {}) => {
    const prefix = `ck-jobs-${randomUUID()}`;
    const backend = () => redis({ url: redisUrl, prefix, taskLockMs: 5_000 });
    const client = new Crawlkit({ backend: backend(), engine: 'http', ...options });
    const startWorker = async () => {
      const engine = new Crawlkit({ backend: backend(), engine: 'http', concurrency: 4, ...options });
      // The sweep only recovers tasks left off the queue by a crash: with it off, every page of these tests reaches
      // the workers because the worker that discovered it queued it.
      await engine.startWorker({ sweepIntervalMs: 3_600_000 });
      return engine;
    };
    let worker = await startWorker();
    return {
      client,
      restartRunner: async () => {
        await worker.close();
        worker = await startWorker();
      },
      close: async () => {
        await client.close();
        await worker.close();
      },
    };
  };
}

/** `[name, factory, available]` for each backend; Redis is unavailable (its tests skip) without a server. */
export function jobBackends(redisUrl: string | undefined): [string, JobBackendFactory, boolean][] {
  return [
    ['embedded store, in-process', embedded, true],
    ['Redis, separate worker engine', onRedis(redisUrl ?? ''), redisUrl !== undefined],
  ];
}

export function ok<T extends { success: boolean }>(value: T): Exclude<T, ErrorResponse> {
  if (!value.success) throw new Error(`unexpected error: ${(value as unknown as ErrorResponse).error}`);
  return value as Exclude<T, ErrorResponse>;
}
