/**
 * Issue 17, learning per host: crawls and batches of a 30-page client-side app and of a 30-page static news site with
 * heavy scripts, each on its own host, with real Chromium (a batch resumed on the SQLite store, the app's batch on two
 * Redis workers). Renders are counted from the sites' own request logs: a page the HTTP engine fetched carries
 * crawlkit's user agent, one the browser loaded does not.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit, type Document, type ErrorResponse } from 'crawlkit';
import { DEFAULT_USER_AGENT } from '@crawlkit/fetcher';
import { redis } from '@crawlkit/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  APP_PATHS,
  STATIC_PATHS,
  TRICKY_PATHS,
  appPageMarker,
  appSiteRoutes,
  staticSiteRoutes,
} from '../fixtures/apps/crawl-sites.ts';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ISOLATED_ARGS } from './helpers/scrape.ts';
import { testRedis } from './setup/redis.ts';

const testRedisUrl = await testRedis();

let app: FixtureServer;
let news: FixtureServer;
let ck: Crawlkit;

// Checks both ways are off here so that the HTTP fetches can be counted exactly; they have their own tests.
const LEARNING = { checkShare: 0 };
const BROWSER = { args: ISOLATED_ARGS, maxConcurrentPages: 3 };

beforeAll(async () => {
  app = await startFixtureServer({ routes: appSiteRoutes() });
  news = await startFixtureServer({ routes: staticSiteRoutes() });
  ck = new Crawlkit({ store: 'memory', browser: BROWSER, engineLearning: LEARNING, timeoutMs: 30_000 });
});

afterAll(async () => {
  await ck?.close();
  await app?.close();
  await news?.close();
});

function ok<T extends { success: boolean }>(value: T | ErrorResponse): Exclude<T, ErrorResponse> {
  if (!value.success) throw new Error(`unexpected error: ${(value as ErrorResponse).error}`);
  return value as Exclude<T, ErrorResponse>;
}

/** The site's pages fetched since request `since`, by engine (paths of HTML pages only). */
function fetches(server: FixtureServer, pages: string[], since: number): { http: string[]; browser: string[] } {
  const seen = server.requests.slice(since).filter((r) => pages.includes(r.path));
  return {
    http: seen.filter((r) => r.headers['user-agent'] === DEFAULT_USER_AGENT).map((r) => r.path),
    browser: seen.filter((r) => r.headers['user-agent'] !== DEFAULT_USER_AGENT).map((r) => r.path),
  };
}

const pathOf = (doc: Document) => new URL(doc.metadata.sourceURL).pathname;

/** What every run of the app site shows: all rendered, HTTP only for the first few pages, tricky pages complete. */
function expectLearnedApp(docs: Document[], http: string[], browser: string[], paths = APP_PATHS): void {
  expect(docs.map(pathOf).sort()).toEqual([...paths].sort());
  expect(docs.filter((d) => d.metadata.engine !== 'browser').map((d) => [pathOf(d), d.metadata.engineReason])).toEqual(
    [],
  );
  expect(new Set(browser)).toEqual(new Set(paths));
  // Two pages teach the host; at most three more were in flight: every later page went straight to the browser.
  expect(http.length).toBeLessThanOrEqual(5);
  const learned = docs.filter((d) => d.metadata.engineReason === 'js-required:host');
  expect(learned.length).toBeGreaterThanOrEqual(paths.length - 5);
  // A teaser fools the judge; the host's record does not.
  for (const path of TRICKY_PATHS.filter((p) => paths.includes(p) && !http.includes(p))) {
    expect(docs.find((d) => pathOf(d) === path)!.markdown).toContain(appPageMarker(path));
  }
}

describe('a crawl and a batch learn which engine a host needs', () => {
  it('crawls a 30-page client-side app: rendered after the first few pages, straight to the browser', async () => {
    const since = app.requests.length;
    const started = ok(
      await ck.crawl({ url: `${app.url}/`, limit: 30, maxConcurrency: 3, scrapeOptions: { maxAge: 0 } }),
    );
    const done = ok(await ck.waitForJob(started.id));
    expect(done.status).toBe('completed');
    const { http, browser } = fetches(app, APP_PATHS, since);
    expectLearnedApp(done.data, http, browser);
  }, 240_000);

  it('never renders a 30-page static site with 40 scripts, a comments spinner and a search index', async () => {
    const since = news.requests.length;
    const crawled = ok(
      await ck.crawl({ url: `${news.url}/`, limit: 30, maxConcurrency: 3, scrapeOptions: { maxAge: 0 } }),
    );
    const crawl = ok(await ck.waitForJob(crawled.id));
    const batched = ok(await ck.batchScrape({ urls: STATIC_PATHS.map((p) => `${news.url}${p}`), maxAge: 0 }));
    const batch = ok(await ck.waitForJob(batched.id));
    for (const docs of [crawl.data, batch.data]) {
      expect(docs.map(pathOf).sort()).toEqual([...STATIC_PATHS].sort());
      expect(docs.every((d) => d.metadata.engine === 'http' && d.metadata.engineReason === 'http:static')).toBe(true);
      expect(docs.every((d) => d.markdown!.includes('Reporters spoke to residents'))).toBe(true);
    }
    expect(fetches(news, STATIC_PATHS, since).browser).toEqual([]);
    // Not even a page was loaded in Chromium: the browser never asked for the sites' scripts.
    expect(news.requests.slice(since).filter((r) => r.path.startsWith('/assets/'))).toEqual([]);
  }, 240_000);
});

describe('what a job learned is in its store', () => {
  it('a batch stopped after its first pages resumes on a new engine that sends every further page to the browser', async () => {
    const storeDir = mkdtempSync(join(tmpdir(), 'ck-adaptive-'));
    const options = { storeDir, browser: BROWSER, engineLearning: LEARNING, timeoutMs: 30_000 };
    const paths = APP_PATHS.slice(0, 8);
    try {
      const first = new Crawlkit(options);
      const started = ok(
        await first.batchScrape({ urls: paths.map((p) => `${app.url}${p}`), maxConcurrency: 1, maxAge: 0 }),
      );
      let stored = 0;
      for await (const _ of first.watch(started.id)) if (++stored === 3) break;
      await first.close();

      const since = app.requests.length;
      const again = new Crawlkit(options);
      try {
        expect(await again.resumeJob(started.id)).toEqual({ success: true, id: started.id });
        const done = ok(await again.waitForJob(started.id));
        expect(done.data.map(pathOf).sort()).toEqual([...paths].sort());
        const resumed = fetches(app, paths, since);
        // The resumed engine learned nothing itself: the job's store told it that the host needs the browser.
        expect(resumed.http).toEqual([]);
        expect(resumed.browser.length).toBeGreaterThanOrEqual(paths.length - 4);
        const afterResume = done.data.filter((d) => resumed.browser.includes(pathOf(d)));
        expect(afterResume.every((d) => d.metadata.engineReason === 'js-required:host')).toBe(true);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(storeDir, { recursive: true, force: true });
    }
  }, 240_000);
});

describe.skipIf(!testRedisUrl)('on Redis workers', () => {
  it('two workers share what the job learned: the app is rendered straight away after the first pages', async () => {
    const prefix = `ck-adaptive-${randomUUID()}`;
    const backend = () => redis({ url: testRedisUrl!, prefix, taskLockMs: 5_000 });
    const options = { browser: BROWSER, engineLearning: LEARNING, timeoutMs: 30_000 };
    const client = new Crawlkit({ backend: backend(), ...options });
    const workers = [
      new Crawlkit({ backend: backend(), ...options }),
      new Crawlkit({ backend: backend(), ...options }),
    ];
    try {
      for (const worker of workers) await worker.startWorker({ sweepIntervalMs: 3_600_000, concurrency: 2 });
      const since = app.requests.length;
      // Half the app, its teaser pages included: the crawl above shows the whole site; here what counts is that the
      // second worker sends its pages to the browser from what the first learned (each page is a render: CPU).
      const paths = [...APP_PATHS.slice(0, 12), ...TRICKY_PATHS];
      const urls = paths.map((p) => `${app.url}${p}`);
      const started = ok(await client.batchScrape({ urls, maxConcurrency: 3, maxAge: 0 }));
      const done = ok(await client.waitForJob(started.id));
      const { http, browser } = fetches(app, paths, since);
      expectLearnedApp(done.data, http, browser, paths);
    } finally {
      await client.close();
      await Promise.all(workers.map((w) => w.close()));
    }
  }, 300_000);
});
