import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';

import * as redisModule from '@crawlkit/redis';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';

import { useFixtureServer } from '../../../../test/helpers/fixture-engine.ts';
import { testRedis } from '../../../../test/setup/redis.ts';
import { Crawlkit } from '../crawlkit.js';
import { runWorker, type WorkerFlags } from './worker.js';
import { addWorkerCommand } from './worker-command.js';

const testRedisUrl = await testRedis();

function io(): { io: { stdout: PassThrough; stderr: NodeJS.WriteStream; stdin: PassThrough }; text: () => string } {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return {
    io: { stdout: new PassThrough(), stderr: stderr as unknown as NodeJS.WriteStream, stdin: new PassThrough() },
    text: () => text,
  };
}

const site = useFixtureServer();

describe('crawlkit worker', () => {
  it('refuses to start without a Redis URL, and on bad flags', async () => {
    const { io: streams } = io();
    const previous = process.env.CRAWLKIT_REDIS_URL;
    delete process.env.CRAWLKIT_REDIS_URL;
    try {
      await expect(runWorker({}, streams, new AbortController().signal, redisModule)).rejects.toMatchObject({
        code: 'CLI_USAGE',
        message: expect.stringContaining('--redis') as string,
      });
      await expect(
        runWorker({ redis: 'redis://x', concurrency: '0' }, streams, new AbortController().signal, redisModule),
      ).rejects.toMatchObject({ code: 'CLI_USAGE' });
      await expect(
        runWorker({ redis: 'redis://x', maxBodyBytes: 'lots' }, streams, new AbortController().signal, redisModule),
      ).rejects.toMatchObject({ code: 'CLI_USAGE', message: expect.stringContaining('--max-body-bytes') as string });
      for (const taskRetryDelayMs of ['0', '1.5', 'soon']) {
        await expect(
          runWorker({ redis: 'redis://x', taskRetryDelayMs }, streams, new AbortController().signal, redisModule),
        ).rejects.toMatchObject({
          code: 'CLI_USAGE',
          message: `Expected --task-retry-delay-ms to be a positive integer, got ${JSON.stringify(taskRetryDelayMs)}`,
        });
      }
      for (const sweepIntervalMs of ['0', '-5', 'often']) {
        await expect(
          runWorker({ redis: 'redis://x', sweepIntervalMs }, streams, new AbortController().signal, redisModule),
        ).rejects.toMatchObject({
          code: 'CLI_USAGE',
          message: `Expected --sweep-interval-ms to be a positive integer, got ${JSON.stringify(sweepIntervalMs)}`,
        });
      }
    } finally {
      if (previous !== undefined) process.env.CRAWLKIT_REDIS_URL = previous;
    }
  });

  it('is a commander subcommand with its flags', () => {
    const program = new Command('crawlkit');
    const { io: streams } = io();
    const command = addWorkerCommand(program, streams, new AbortController().signal, () => undefined);
    expect(command.name()).toBe('worker');
    expect(command.options.map((o) => o.long)).toEqual(
      expect.arrayContaining([
        '--redis',
        '--prefix',
        '--engine',
        '--concurrency',
        '--max-body-bytes',
        '--task-lock-ms',
        '--task-retry-delay-ms',
        '--sweep-interval-ms',
      ]),
    );
  });

  /**
   * Runs a worker with `flags`, and a batch of two fixture pages on it; resolves once the worker stopped, with the
   * options the worker gave `redis()`.
   */
  async function batchOnWorker(flags: Partial<WorkerFlags>) {
    const prefix = `ck-cli-${randomUUID()}`;
    const { io: streams, text } = io();
    const stop = new AbortController();
    let backendOptions: redisModule.RedisBackendOptions | undefined;
    const recording = {
      ...redisModule,
      redis: (options: redisModule.RedisBackendOptions) => redisModule.redis((backendOptions = options)),
    };
    const running = runWorker(
      { redis: testRedisUrl!, prefix, engine: 'http', concurrency: '4', ...flags },
      streams,
      stop.signal,
      recording,
    );
    const client = new Crawlkit({ backend: redisModule.redis({ url: testRedisUrl!, prefix }), engine: 'http' });
    try {
      const urls = ['/', '/articles/first-post.html'].map((path) => `${site.server.url}${path}`);
      const started = await client.batchScrape({ urls });
      if (!started.success) throw new Error(started.error);
      const done = await client.waitForJob(started.id);
      const errors = await client.getBatchScrapeErrors(started.id);
      if ('success' in errors) throw new Error(errors.error);
      stop.abort();
      const exitCode = await running;
      return { done, errors: errors.errors, exitCode, text: text(), backendOptions };
    } finally {
      await client.close();
      stop.abort();
    }
  }

  it.skipIf(!testRedisUrl)('takes tasks from Redis until stopped, then exits 0', async () => {
    const { done, exitCode, text } = await batchOnWorker({});
    expect(done).toMatchObject({ success: true, status: 'completed', total: 2 });
    expect(exitCode).toBe(0);
    expect(text).toMatch(/worker \S+ taking tasks from redis:\/\/127\.0\.0\.1:\d+/);
    expect(text).toContain(`page `);
    // The worker ended the job: its line, with its pages and time.
    expect(text).toMatch(/Z info batch \S+ completed: 2\/2 pages in \d+\.\d s$/m);
    expect(text).toContain('worker stopped: 2 pages stored, 0 failed');
  });

  it.skipIf(!testRedisUrl)('gives --task-retry-delay-ms and --task-lock-ms to its Redis backend', async () => {
    const { done, exitCode, backendOptions } = await batchOnWorker({ taskRetryDelayMs: '250', taskLockMs: '20000' });
    expect(done).toMatchObject({ success: true, status: 'completed', total: 2 });
    expect(exitCode).toBe(0);
    expect(backendOptions).toMatchObject({ taskRetryDelayMs: 250, taskLockMs: 20_000 });
    expect((await batchOnWorker({})).backendOptions).not.toHaveProperty('taskRetryDelayMs');
  });

  it.skipIf(!testRedisUrl)('applies --max-body-bytes to the pages it takes', async () => {
    const { done, errors, exitCode, text } = await batchOnWorker({ maxBodyBytes: '200' });
    expect(done).toMatchObject({ success: true, status: 'completed' });
    expect(errors.map((e) => e.code)).toEqual(['SCRAPE_RESPONSE_TOO_LARGE', 'SCRAPE_RESPONSE_TOO_LARGE']);
    expect(exitCode).toBe(0);
    // A page's error line names its code, as the lines of errors not of a page do (was: the message alone).
    expect(text).toMatch(/Z info page failed \S+ http:\/\/127\.0\.0\.1:\d+\/\S*: .+ \(SCRAPE_RESPONSE_TOO_LARGE\)$/m);
    expect(text).toContain('worker stopped: 0 pages stored, 2 failed');
  });
});
