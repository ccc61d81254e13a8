/** Typed engine events, AbortSignal on calls, and the pluggable logger, against the fixture site. */
import { describe, expect, it } from 'vitest';

import { useFixtureServer } from '../../../test/helpers/fixture-engine.ts';
import { Crawlkit } from './crawlkit.js';
import type { CrawlkitEvents } from './events.js';
import type { Logger } from './logger.js';

const site = useFixtureServer();
/** Nothing listens on port 1: the page fails with SCRAPE_CONNECTION_ERROR, and is not retried. */
const REFUSED = 'http://127.0.0.1:1/refused';

describe('engine events', () => {
  it('emits job:started, page, progress and job:completed for a crawl, in order', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    const seen: string[] = [];
    const progress: CrawlkitEvents['progress'][0][] = [];
    ck.on('job:started', (e) => seen.push(`started:${e.kind}`));
    ck.on('page', (e) => seen.push(`page:${e.jobId === undefined ? 'direct' : 'job'}`));
    // The counts are read after the last page settles: told with the job's end or just after it.
    const end = new Promise<void>((resolve) =>
      ck.on('progress', (e) => {
        progress.push(e);
        if (e.completed === 4 && e.total === 4) resolve();
      }),
    );
    ck.on('job:completed', (e) => seen.push(`completed:${e.status}`));
    try {
      const started = await ck.crawl({ url: `${site.server.url}/`, limit: 4, crawlEntireDomain: true });
      if (!started.success) throw new Error(started.error);
      await ck.waitForJob(started.id);
      await end;
      expect(seen[0]).toBe('started:crawl');
      expect(seen.at(-1)).toBe('completed:completed');
      expect(seen.filter((s) => s === 'page:job')).toHaveLength(4);
      // One event per change of the counts, in order (pages settling together are told once).
      expect(progress.every((p) => p.id === started.id && p.kind === 'crawl')).toBe(true);
      const completed = progress.map((p) => p.completed);
      expect(completed).toEqual(completed.toSorted((a, b) => a - b));
      expect(progress.at(-1)).toMatchObject({ completed: 4, total: 4, creditsUsed: 4 });
    } finally {
      await ck.close();
    }
  });

  it("job:started tells a crawl's start URL without its credentials, and a batch's number of URLs", async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    const started: CrawlkitEvents['job:started'][0][] = [];
    ck.on('job:started', (e) => started.push(e));
    try {
      const seed = new URL(`${site.server.url}/articles/first-post.html`);
      seed.username = 'user';
      seed.password = 'pass-S3CRET';
      const crawl = await ck.crawl({ url: seed.href, limit: 1 });
      const batch = await ck.batchScrape({
        urls: [REFUSED, `${site.server.url}/`, 'not a url'],
        ignoreInvalidURLs: true,
        timeout: 5000,
      });
      if (!crawl.success) throw new Error(crawl.error);
      if (!batch.success) throw new Error(batch.error);
      await Promise.all([ck.waitForJob(crawl.id, { documents: false }), ck.waitForJob(batch.id, { documents: false })]);
      expect(started).toEqual([
        { id: crawl.id, kind: 'crawl', url: expect.stringContaining('/articles/first-post.html') },
        { id: batch.id, kind: 'batch', urls: 2 },
      ]);
      expect(JSON.stringify(started)).not.toContain('pass-S3CRET');
    } finally {
      await ck.close();
    }
  });

  it('emits error for a failed page of a batch, and page for a direct scrape', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    const errors: CrawlkitEvents['error'][0][] = [];
    const pages: CrawlkitEvents['page'][0][] = [];
    ck.on('error', (e) => errors.push(e));
    ck.on('page', (e) => pages.push(e));
    try {
      await ck.scrape({ url: `${site.server.url}/articles/first-post.html` });
      expect(pages).toHaveLength(1);
      expect(pages[0]!.jobId).toBeUndefined();
      // A refused connection fails at once: a reset one is retried with back-off first (7 to 14 s).
      const batch = await ck.batchScrape({ urls: [REFUSED], timeout: 5000 });
      if (!batch.success) throw new Error(batch.error);
      await ck.waitForJob(batch.id);
      expect(errors).toHaveLength(1);
      // The page's own code travels with the event, not a generic one.
      expect(errors[0]).toMatchObject({
        jobId: batch.id,
        url: REFUSED,
        error: { success: false, code: 'SCRAPE_CONNECTION_ERROR' },
      });
    } finally {
      await ck.close();
    }
  });
});

describe('AbortSignal', () => {
  it('every call takes a signal; an aborted call answers ABORTED and starts nothing', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    const signal = AbortSignal.abort();
    const init = { signal };
    const id = '01234567-89ab-7def-8123-456789abcdef';
    try {
      const answers = await Promise.all([
        ck.scrape({ url: `${site.server.url}/` }, init),
        ck.crawl({ url: `${site.server.url}/` }, init),
        ck.batchScrape({ urls: [`${site.server.url}/`] }, init),
        ck.map({ url: `${site.server.url}/` }, init),
        ck.getCrawlStatus(id, {}, init),
        ck.getBatchScrapeStatus(id, {}, init),
        ck.cancelCrawl(id, init),
        ck.cancelBatchScrape(id, init),
        ck.getCrawlErrors(id, init),
        ck.getBatchScrapeErrors(id, init),
        ck.getActiveCrawls(init),
        ck.resumeJob(id, init),
      ]);
      for (const answer of answers) expect(answer).toMatchObject({ success: false, code: 'ABORTED' });
      const active = await ck.getActiveCrawls();
      expect(active).toMatchObject({ success: true, crawls: [] });
    } finally {
      await ck.close();
    }
  });

  it('a signal aborted mid-scrape stops the page', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    try {
      const controller = new AbortController();
      const pending = ck.scrape({ url: `${site.server.url}/hostile/hang` }, { signal: controller.signal });
      setTimeout(() => controller.abort(), 200);
      expect(await pending).toMatchObject({ success: false, code: 'ABORTED' });
    } finally {
      await ck.close();
    }
  });
});

describe('logger', () => {
  it('receives failed pages and job ends when one is given', async () => {
    const lines: string[] = [];
    const logger: Logger = {
      debug: (message) => lines.push(`debug ${message}`),
      info: (message) => lines.push(`info ${message}`),
      warn: (message) => lines.push(`warn ${message}`),
      error: (message) => lines.push(`error ${message}`),
    };
    const ck = new Crawlkit({ store: 'memory', engine: 'http', logger });
    try {
      const batch = await ck.batchScrape({ urls: [REFUSED], timeout: 5000 });
      if (!batch.success) throw new Error(batch.error);
      await ck.waitForJob(batch.id);
      expect(lines).toContain(`debug [engine] batch ${batch.id} started`);
      expect(lines.some((l) => l.startsWith(`debug [engine] job ${batch.id}: ${REFUSED} failed:`))).toBe(true);
      expect(lines).toContain(`debug [engine] batch ${batch.id} completed`);
    } finally {
      await ck.close();
    }
  });
});
