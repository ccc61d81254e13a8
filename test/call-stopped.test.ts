/**
 * Calls stopped under way, by their signal or by `close()`, answer crawlkit's codes: `watch(id)`, the one call that
 * throws (an async iterator), throws a `CrawlkitError` `ABORTED` (before: the signal's DOMException, its `code` the
 * number 20) or `ENGINE_CLOSED` (before: the store's `STORE_CLOSED`); `waitForJob` answers `ENGINE_CLOSED` (before:
 * `STORE_CLOSED`). A `watch` loop the user breaks out of early leaves the job running. `close()` stops the scrapes
 * under way too (before: it waited for each to end, up to its `timeout`).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Crawlkit, CrawlkitError } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ok, slowRoutes } from './helpers-batch.ts';

let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer({ routes: slowRoutes().routes });
});

afterAll(async () => {
  await server.close();
});

describe('watch()', () => {
  it('aborted by its signal, before or while it waits, throws CrawlkitError ABORTED', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    try {
      const urls = Array.from({ length: 4 }, (_, i) => `${server.url}/slow/w${i}?ms=300`);
      const job = ok(await ck.batchScrape({ urls, maxConcurrency: 1 }));

      const before = new AbortController();
      before.abort();
      const early = await drain(ck.watch(job.id, { signal: before.signal }));
      expect(early).toBeInstanceOf(CrawlkitError);
      expect(early).toMatchObject({ code: 'ABORTED' });

      // Aborted while it waits for the next page.
      const during = new AbortController();
      const pages: string[] = [];
      const late = await drain(ck.watch(job.id, { signal: during.signal }), (url) => {
        pages.push(url);
        during.abort();
      });
      expect(pages).toHaveLength(1);
      expect(late).toBeInstanceOf(CrawlkitError);
      expect(late).toMatchObject({ code: 'ABORTED' });

      // Breaking out of the loop leaves the job to finish.
      for await (const _ of ck.watch(job.id)) break;
      expect(ok(await ck.waitForJob(job.id))).toMatchObject({ status: 'completed', completed: 4 });
    } finally {
      await ck.close();
    }
  });

  it('stopped by close() while it waits, throws CrawlkitError ENGINE_CLOSED as the jobs stop, not a second later', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    const urls = Array.from({ length: 3 }, (_, i) => `${server.url}/slow/c${i}?ms=500`);
    const job = ok(await ck.batchScrape({ urls, maxConcurrency: 1 }));
    let closed!: Promise<void>;
    let called!: () => void;
    const closeCalled = new Promise<void>((resolve) => (called = resolve));
    const stopped = drain(ck.watch(job.id), () => {
      closed = ck.close();
      called();
    });
    await closeCalled;
    await closed;
    // Thrown once the jobs stopped (before: a second after they did, when its next read found the store closed).
    const late = new Promise((resolve) => setTimeout(() => resolve('still waiting 200 ms after close()'), 200));
    const error = await Promise.race([stopped, late]);
    expect(error).toBeInstanceOf(CrawlkitError);
    expect(error).toMatchObject({ code: 'ENGINE_CLOSED' });
  });
});

describe('waitForJob()', () => {
  it('stopped by close() answers ENGINE_CLOSED; a call after it too', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    const urls = Array.from({ length: 3 }, (_, i) => `${server.url}/slow/d${i}?ms=500`);
    const job = ok(await ck.batchScrape({ urls, maxConcurrency: 1 }));
    const waiting = ck.waitForJob(job.id);
    ck.once('page', () => void ck.close());
    expect(await waiting).toMatchObject({ success: false, code: 'ENGINE_CLOSED' });
    expect(await ck.getBatchScrapeStatus(job.id)).toEqual({
      success: false,
      code: 'ENGINE_CLOSED',
      error: expect.stringMatching(
        /^This Crawlkit instance is closed .*: make a new Crawlkit to go on .*resumeJob\(id\)/,
      ),
    });
  });
});

describe('scrape() under way when close() is called', () => {
  it('answers ENGINE_CLOSED at once, over HTTP and in the browser, waiting for a slot too; the page is let go', async () => {
    // Pages that never answer: only close() ends their scrapes before their 60 s timeout.
    const asked: IncomingMessage[] = [];
    const hanging = createServer((req) => void asked.push(req));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
    const letGo = (path: string) =>
      new Promise<void>((resolve) => {
        const req = asked.find((r) => r.url === path);
        if (req?.socket.destroyed) resolve();
        else req?.socket.once('close', () => resolve());
      });
    const ck = new Crawlkit({ store: 'memory', concurrency: 2 });
    try {
      const answers = Promise.all([
        ck.scrape({ url: `${url}/http`, timeout: 60_000 }),
        ck.scrape({ url: `${url}/browser`, formats: ['screenshot'], timeout: 60_000 }),
        ck.scrape({ url: `${url}/queued`, timeout: 60_000 }),
      ]);
      while (!['/http', '/browser'].every((path) => asked.some((req) => req.url === path))) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(ck.getQueueStatus()).toMatchObject({ activeJobsInQueue: 2, waitingJobsInQueue: 1 });
      const closing = performance.now();
      await ck.close();
      // Before: close() resolved once the pages' timeouts ended the scrapes, 60 s on.
      expect(performance.now() - closing).toBeLessThan(10_000);
      for (const answer of await answers) {
        expect(answer).toMatchObject({
          success: false,
          code: 'ENGINE_CLOSED',
          error: expect.stringContaining('new Crawlkit'),
        });
      }
      await Promise.all([letGo('/http'), letGo('/browser')]);
      expect(asked.map((req) => req.url)).not.toContain('/queued');
    } finally {
      await ck.close();
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  }, 30_000);
});

describe('close() called twice', () => {
  it('resolves each call once the engine is closed, its last webhook delivered', async () => {
    // A receiver that answers after 300 ms: close() waits for the delivery under way.
    let answered = 0;
    const receiver = createServer((req, res) => {
      req.resume();
      setTimeout(() => res.end('ok', () => answered++), 300);
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    try {
      const job = ok(
        await ck.batchScrape({ urls: [`${server.url}/slow/t?ms=10`], webhook: { url: hook, events: ['completed'] } }),
      );
      expect(ok(await ck.waitForJob(job.id))).toMatchObject({ status: 'completed' });
      const first = ck.close();
      // As an app's SIGINT and SIGTERM handlers, or a test's afterEach and afterAll, both do.
      await ck.close();
      // Before: the second call resolved at once, the first still closing (its webhook, browser and store).
      expect(answered).toBe(1);
      await first;
    } finally {
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});

describe('the usage and slot methods after close()', () => {
  it('answer the final credits and tokens (a report at exit); queue status and concurrency answer ENGINE_CLOSED', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    ok(await ck.scrape({ url: `${server.url}/slow/usage?ms=1` }, { tenant: 'user-1' }));
    expect(ok(ck.getQueueStatus())).toMatchObject({ jobsInQueue: 0, maxConcurrency: expect.any(Number) });
    await ck.close();
    expect(ck.getCreditUsage().data.creditsUsed).toBe(1);
    expect(ck.getCreditUsage({ tenant: 'user-1' }).data.creditsUsed).toBe(1);
    expect(ck.getTokenUsage().data.tokensUsed).toBe(0);
    // Before: both answered as an open engine's, 0 of `concurrency` in use, to a health probe of a closed engine.
    for (const answer of [ck.getQueueStatus(), ck.getConcurrency(), ck.getQueueStatus({ tenant: 'user-1' })]) {
      expect(answer).toMatchObject({ success: false, code: 'ENGINE_CLOSED' });
    }
  });
});

/** Iterates `pages` to its end; what it threw, if anything. */
async function drain(pages: AsyncIterable<{ metadata: { sourceURL: string } }>, each?: (url: string) => void) {
  try {
    for await (const page of pages) each?.(page.metadata.sourceURL);
    return undefined;
  } catch (error) {
    return error;
  }
}
