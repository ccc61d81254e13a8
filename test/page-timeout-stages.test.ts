/**
 * Where a page's time goes (traps day Left 6): a crawl page is not charged for the time it waited for the job's
 * slot (`maxConcurrency`) or its host's, and a timeout says the stage it was in.
 */
import { Crawlkit, type CrawlErrorsResponse, type ErrorResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';

let site: FixtureServer;
let ck: Crawlkit;

beforeAll(async () => {
  site = await startRouteSite({
    '/': (_req, res) => sendPage(res, 'Hub', '<a href="/slow1">1</a> <a href="/slow2">2</a> <a href="/fast">3</a>'),
    // Each takes 900 ms of a 1500 ms timeout: the pages behind them wait longer than that in all.
    '/slow1': (_req, res) => void setTimeout(() => sendPage(res, 'Slow 1', '<p>One.</p>'), 900),
    '/slow2': (_req, res) => void setTimeout(() => sendPage(res, 'Slow 2', '<p>Two.</p>'), 900),
    '/fast': (_req, res) => sendPage(res, 'Fast', '<p>Three.</p>'),
    '/hang': () => undefined,
    '/in-600ms': (_req, res) => void setTimeout(() => sendPage(res, 'In 600 ms', '<p>Late.</p>'), 600),
    '/in-2700ms': (_req, res) => void setTimeout(() => sendPage(res, 'In 2700 ms', '<p>Later.</p>'), 2_700),
  });
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
  // The extraction worker started before the tests, which give pages 1.5 s: a cold worker's first extraction took
  // 1.5-1.6 s at load 10 (four engines starting at once).
  const warm = await ck.scrape({ url: `${site.url}/fast`, storeInCache: false });
  if (!warm.success) throw new Error(warm.error);
});

afterAll(async () => {
  await ck.close();
  await site.close();
});

describe("a page's time", () => {
  it('starts when its work starts: a page queued behind slow ones under maxConcurrency 1 does not time out', async () => {
    const started = await ck.crawl({
      url: `${site.url}/`,
      sitemap: 'skip',
      maxConcurrency: 1,
      scrapeOptions: { timeout: 1_500 },
    });
    if (!started.success) throw new Error(started.error);
    const at = performance.now();
    const done = await ck.waitForJob(started.id);
    if (!done.success) throw new Error(done.error);
    // The pages ran one after the other: the last waited past its own timeout for its turn.
    expect(performance.now() - at).toBeGreaterThan(1_700);
    expect(((await ck.getCrawlErrors(started.id)) as CrawlErrorsResponse).errors).toEqual([]);
    expect(done.data.map((doc) => new URL(doc.metadata.sourceURL).pathname).sort()).toEqual([
      '/',
      '/fast',
      '/slow1',
      '/slow2',
    ]);
  });

  it('says it was fetching when the fetch hangs', async () => {
    const response = (await ck.scrape({ url: `${site.url}/hang`, timeout: 1_000 })) as ErrorResponse;
    expect(response).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT' });
    expect(response.error).toBe('Scrape timed out after 1000 ms while fetching the page.');
  });
});

describe("a direct scrape's timeout covers the call as a whole", () => {
  /** An engine of one scrape slot, held by a scrape of `path` meanwhile. */
  async function slotHeldBy(path: string, timeout: number) {
    const one = new Crawlkit({ store: 'memory', engine: 'http', concurrency: 1 });
    const holder = one.scrape({ url: `${site.url}${path}`, timeout });
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { one, holder };
  }

  it('waits two thirds of it for a slot at most, and says it was waiting for one', async () => {
    const { one, holder } = await slotHeldBy('/hang', 3_000);
    try {
      const at = performance.now();
      const response = (await one.scrape({ url: `${site.url}/fast`, timeout: 1_500 })) as ErrorResponse;
      expect(performance.now() - at).toBeLessThan(2_500);
      expect(response).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT' });
      expect(response.error).toMatch(
        /^Scrape timed out after 1500 ms while waiting for a scrape slot: it waited \d+ ms/,
      );
    } finally {
      await holder;
      await one.close();
    }
  });

  it('and the scrape has what the wait left of it', async () => {
    const { one, holder } = await slotHeldBy('/in-600ms', 3_000);
    try {
      // 600 ms and more in line, then a page that takes 2700 ms: past the 3000 ms of the call, within a fresh 3000.
      const response = (await one.scrape({ url: `${site.url}/in-2700ms`, timeout: 3_000 })) as ErrorResponse;
      expect(response).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT' });
      expect(response.error).toBe('Scrape timed out after 3000 ms while fetching the page.');
    } finally {
      await holder;
      await one.close();
    }
  });

  it('but a call without a timeout waits its turn, then has the whole default', async () => {
    const one = new Crawlkit({ store: 'memory', engine: 'http', concurrency: 1, timeoutMs: 1_500 });
    try {
      // two thirds of the default (1000 ms) pass in line: a script's thousand scrapes at once all get their pages
      const holder = one.scrape({ url: `${site.url}/in-600ms`, maxAge: 0 });
      const second = one.scrape({ url: `${site.url}/in-600ms`, maxAge: 0 });
      const third = await one.scrape({ url: `${site.url}/in-600ms`, maxAge: 0 });
      expect([(await holder).success, (await second).success, third.success]).toEqual([true, true, true]);
    } finally {
      await one.close();
    }
  });
});
