/**
 * Redis down (issue 38, finding 7): with the server paused (SIGSTOP: connections stay open and nothing answers) or
 * killed, `crawl()`, `getCrawlStatus()`, `scrape()` and `close()` answer within the call's time: a clear
 * `REDIS_UNAVAILABLE` (or `STORE_IO`), never a hang, and `scrape()` never blames the page (before: every call hung
 * until Redis came back, and `scrape()` then answered `SCRAPE_TIMEOUT … while fetching the page`).
 */
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';

import { redis } from '@crawlkit/redis';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runWorker } from '../packages/crawlkit/src/cli/worker.ts';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { until } from './helpers-batch.ts';
import { ok } from './helpers/job-backends.ts';
import { ownRedisServer, stopOwnRedisServer, type RedisServer } from './setup/redis.ts';

let site: FixtureServer;
beforeAll(async () => {
  site = await startFixtureServer();
});
afterAll(async () => {
  await site.close();
});

/**
 * The store's command timeout, shorter than its default (5 s): what is asserted is that a call answers within it,
 * not its length, and each call that meets the outage waits it out.
 */
const COMMAND_TIMEOUT_MS = 2_000;
/** How long a call may take while Redis is down: the command timeout and a margin for the load. */
const ANSWER_MS = COMMAND_TIMEOUT_MS + 4_000;

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
}

function codeOf(value: unknown): string | undefined {
  return (value as { code?: string }).code;
}

for (const fault of ['paused', 'killed'] as const) {
  describe(`Redis ${fault}`, () => {
    let server: RedisServer | undefined;
    afterAll(() => stopOwnRedisServer(server));

    it('every call answers a clear error in time, and close() returns', { timeout: 90_000 }, async () => {
      server = await ownRedisServer();
      if (!server) return;
      const ck = new Crawlkit({
        backend: redis({ url: server.url, prefix: `ck-outage-${randomUUID()}`, commandTimeoutMs: COMMAND_TIMEOUT_MS }),
        engine: 'http',
      });
      const { id } = ok(await ck.crawl({ url: `${site.url}/`, limit: 2 }));
      ok(await ck.getCrawlStatus(id));

      process.kill(server.pid, fault === 'paused' ? 'SIGSTOP' : 'SIGKILL');

      const crawl = await timed(ck.crawl({ url: `${site.url}/`, limit: 2 }));
      expect(codeOf(crawl.value), JSON.stringify(crawl.value)).toMatch(/^(REDIS_UNAVAILABLE|STORE_IO)$/);
      expect(crawl.ms).toBeLessThan(ANSWER_MS);

      const status = await timed(ck.getCrawlStatus(id));
      expect(codeOf(status.value), JSON.stringify(status.value)).toMatch(/^(REDIS_UNAVAILABLE|STORE_IO)$/);
      expect(status.ms).toBeLessThan(ANSWER_MS);

      // A scrape's answer comes within its own timeout, and says the store failed, not the page.
      const scrape = await timed(ck.scrape({ url: `${site.url}/`, timeout: 8_000 }));
      expect(codeOf(scrape.value), JSON.stringify(scrape.value)).toMatch(/^(REDIS_UNAVAILABLE|STORE_IO)$/);
      expect((scrape.value as { error: string }).error).not.toMatch(/while fetching the page/);
      expect(scrape.ms).toBeLessThan(8_000 + 1_000);

      const close = await timed(ck.close());
      expect(close.ms).toBeLessThan(ANSWER_MS);
    });
  });
}

describe('crawlkit worker while Redis is paused', () => {
  let server: RedisServer | undefined;
  afterAll(() => stopOwnRedisServer(server));

  it('counts the store errors apart from failed pages', { timeout: 90_000 }, async () => {
    server = await ownRedisServer();
    if (!server) return;
    const prefix = `ck-outage-${randomUUID()}`;
    let text = '';
    const stderr = new PassThrough().setEncoding('utf8');
    stderr.on('data', (chunk: string) => (text += chunk));
    const io = { stdout: new PassThrough(), stderr, stdin: new PassThrough() } as never;
    const stop = new AbortController();
    // The worker's store gets the short command timeout too: the sweep's command waits it out before it fails.
    const shortTimeout = {
      redis: (options: Parameters<typeof redis>[0]) => redis({ ...options, commandTimeoutMs: COMMAND_TIMEOUT_MS }),
    };
    // Its idle sweep every 300 ms, not 5 s: the pause below is met by the next one.
    const flags = { redis: server.url, prefix, engine: 'http', sweepIntervalMs: '300' } as const;
    const running = runWorker(flags, io, stop.signal, shortTimeout);
    const client = new Crawlkit({ backend: redis({ url: server.url, prefix }), engine: 'http' });
    try {
      const urls = ['/', '/articles/first-post.html'].map((path) => `${site.url}${path}`);
      ok(await client.waitForJob(ok(await client.batchScrape({ urls })).id));
      // Paused until the idle worker's sweep meets the outage (a command past its timeout), then back.
      process.kill(server.pid, 'SIGSTOP');
      await until(() => text.includes('error (not a page)'), 60_000);
      process.kill(server.pid, 'SIGCONT');
    } finally {
      stop.abort();
      await client.close();
    }
    expect(await running).toBe(0);
    expect(text).toMatch(/error \(not a page\) .*REDIS_UNAVAILABLE/);
    // Before: "2 pages stored, 1 failed", though no page failed.
    expect(text).toMatch(/worker stopped: 2 pages stored, 0 failed, \d+ errors not of a page/);
  });
});
