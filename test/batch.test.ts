/**
 * Batch scrape end to end (reference §14, §13.6–13.8): a real fixture server on 127.0.0.1, a real SQLite store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit, type BatchScrapeResponse, type JobStatusResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ok, slowRoutes } from './helpers-batch.ts';

let server: FixtureServer;
let ck: Crawlkit;
let dir: string;
const slow = slowRoutes();
/** `/held`: answers nothing; `held.arrived` settles when a request comes, `held.closed` when its client leaves. */
const held = heldRoute();

function heldRoute() {
  let arrive!: () => void;
  let close!: () => void;
  const state = {
    arrived: new Promise<void>((resolve) => (arrive = resolve)),
    closed: new Promise<void>((resolve) => (close = resolve)),
    route: (req: IncomingMessage) => {
      arrive();
      req.socket.on('close', close);
    },
  };
  return state;
}

beforeAll(async () => {
  server = await startFixtureServer({ routes: { ...slow.routes, '/held': held.route } });
  dir = mkdtempSync(join(tmpdir(), 'ck-batch-'));
  ck = new Crawlkit({
    storeDir: dir,
    engine: 'http',
    concurrency: 8,
    urlPolicy: { blockedHosts: ['blocked.test'] },
  });
});

afterAll(async () => {
  await ck.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('batchScrape', () => {
  it('scrapes every URL, keeps sourceURL as sent, sums credits and pages through results with next', async () => {
    const urls = ['/articles/first-post.html', '/docs/getting-started.html', '/forum/thread.html', '/listing.html'].map(
      (p) => `${server.url}${p}`,
    );
    urls.push(`${server.url}/products/widget.html?pagewanted=all&x`);
    const started = ok<BatchScrapeResponse>(await ck.batchScrape({ urls, formats: ['markdown', 'links'] }));
    expect(started.url).toBe(`crawlkit://v2/batch/scrape/${started.id}`);
    // §14: the flag defaults to true in the schema, so an omitted flag still answers an empty list.
    expect(started.invalidURLs).toEqual([]);

    const done = ok<JobStatusResponse>(await ck.waitForJob(started.id));
    expect(done).toMatchObject({ status: 'completed', total: 5, completed: 5, creditsUsed: 5 });
    expect(done.data.map((d) => d.metadata.sourceURL).sort()).toEqual([...urls].sort());
    expect(done.data.every((d) => d.markdown && d.links && d.metadata.creditsUsed === 1)).toBe(true);
    // Results expire 24 hours after completion.
    const completedAt = Date.parse(done.completedAt!);
    expect(Math.abs(Date.parse(done.expiresAt) - (completedAt + 86_400_000))).toBeLessThan(1000);

    const seen: string[] = [];
    let page = ok<JobStatusResponse>(await ck.getBatchScrapeStatus(started.id, { limit: 2 }));
    const skips: string[] = [];
    for (;;) {
      seen.push(...page.data.map((d) => d.metadata.sourceURL));
      if (!page.next) break;
      skips.push(new URL(page.next).searchParams.get('skip')!);
      page = ok<JobStatusResponse>(await ck.getBatchScrapeStatus(page.next));
    }
    expect(skips).toEqual(['2', '4']);
    expect(seen).toEqual(done.data.map((d) => d.metadata.sourceURL));
    // A running job always offers `next`; a finished one only while results remain.
    const last = ok<JobStatusResponse>(await ck.getBatchScrapeStatus(started.id, { skip: 5 }));
    expect(last.data).toEqual([]);
    expect(last.next).toBeUndefined();
  });

  it('ignoreInvalidURLs: true drops invalid and policy-blocked URLs and lists them', async () => {
    const good = `${server.url}/listing.html?i=1`;
    const bad = ['not a url', 'ftp://x.test/f', 'http://blocked.test/page', 'javascript:alert(1)'];
    const kept = ok<BatchScrapeResponse>(await ck.batchScrape({ urls: [good, ...bad], ignoreInvalidURLs: true }));
    expect(kept.invalidURLs).toEqual(bad);
    const done = ok<JobStatusResponse>(await ck.waitForJob(kept.id));
    expect(done.total).toBe(1);
    expect(done.data.map((d) => d.metadata.sourceURL)).toEqual([good]);

    const none = ok<BatchScrapeResponse>(await ck.batchScrape({ urls: [good], ignoreInvalidURLs: true }));
    expect(none.invalidURLs).toEqual([]);
    expect(await ck.batchScrape({ urls: bad, ignoreInvalidURLs: true })).toMatchObject({
      success: false,
      code: 'BAD_REQUEST',
      error: 'No valid URLs provided',
    });
    await ck.waitForJob(none.id);
  });

  it('ignoreInvalidURLs false or omitted: one invalid URL rejects the request; false answers no invalidURLs', async () => {
    const good = `${server.url}/listing.html?i=2`;
    for (const flag of [false, undefined]) {
      const body = { urls: [good, 'not a url'], ...(flag === undefined ? {} : { ignoreInvalidURLs: flag }) };
      const rejected = await ck.batchScrape(body);
      expect(rejected).toMatchObject({ success: false, code: 'BAD_REQUEST' });
      expect(rejected).not.toHaveProperty('invalidURLs');
      const blocked = await ck.batchScrape({ ...body, urls: [good, 'http://blocked.test/'] });
      expect(blocked).toMatchObject({ success: false, code: 'URL_BLOCKED' });
      // One bad line of 200 refused the list without a word of the flag that keeps the rest; `false` asked for that.
      const hint = 'Fix or remove it, or send ignoreInvalidURLs: true to scrape the valid URLs and list the others';
      if (flag === undefined) {
        expect(rejected).toHaveProperty('error', `Invalid URL: urls[1] ("not a url"). ${hint} in invalidURLs.`);
        expect(blocked).toHaveProperty('error', expect.stringContaining(`(urls[1]). ${hint} in invalidURLs.`));
      } else {
        expect(rejected).toHaveProperty('error', 'Invalid URL: urls[1] ("not a url")');
        expect(blocked).toHaveProperty('error', expect.not.stringContaining('ignoreInvalidURLs'));
      }
    }
    const strict = ok<BatchScrapeResponse>(await ck.batchScrape({ urls: [good], ignoreInvalidURLs: false }));
    expect(strict).not.toHaveProperty('invalidURLs');
    await ck.waitForJob(strict.id);
    expect(await ck.batchScrape({ urls: [] })).toMatchObject({ success: false, code: 'BAD_REQUEST' });
  });

  it('applies the shared scrape options to every URL', async () => {
    const urls = [`${server.url}/articles/first-post.html?o=1`, `${server.url}/listing.html?o=1`];
    const started = ok<BatchScrapeResponse>(
      await ck.batchScrape({ urls, formats: ['html', 'rawHtml'], onlyMainContent: false, maxAge: 0 }),
    );
    const done = ok<JobStatusResponse>(await ck.waitForJob(started.id));
    expect(done.data).toHaveLength(2);
    for (const doc of done.data) {
      expect(doc.markdown).toBeUndefined();
      expect(doc.rawHtml).toContain('<html');
      expect(doc.html).toBeTruthy();
    }
  });

  it('keeps to maxConcurrency', async () => {
    slow.stats.maxInFlight = 0;
    const urls = Array.from({ length: 10 }, (_, i) => `${server.url}/slow/c${i}?ms=80`);
    const started = ok<BatchScrapeResponse>(await ck.batchScrape({ urls, maxConcurrency: 2 }));
    const done = ok<JobStatusResponse>(await ck.waitForJob(started.id));
    expect(done.completed).toBe(10);
    expect(slow.stats.maxInFlight).toBe(2);
  });

  it('records failed pages in errors, charges them nothing, and still completes', async () => {
    const started = ok<BatchScrapeResponse>(
      await ck.batchScrape({ urls: [`${server.url}/listing.html?f=1`, 'http://127.0.0.1:1/refused'] }),
    );
    const done = ok<JobStatusResponse>(await ck.waitForJob(started.id));
    // As upstream counts: the documents, which the failed page is not (it is in the errors).
    expect(done).toMatchObject({ completed: 1, total: 1, creditsUsed: 1 });
    expect(done.data).toHaveLength(1);
    const errors = await ck.getBatchScrapeErrors(started.id);
    if ('success' in errors) throw new Error(errors.error);
    expect(errors.errors).toHaveLength(1);
    expect(errors.errors[0]).toMatchObject({ url: 'http://127.0.0.1:1/refused' });
    expect(errors.errors[0]!.error).toBeTruthy();
  });

  it('appendToId adds URLs to a finished batch, which runs again and counts them', async () => {
    const first = ok<BatchScrapeResponse>(await ck.batchScrape({ urls: [`${server.url}/listing.html?a=1`] }));
    ok(await ck.waitForJob(first.id));
    const appended = ok<BatchScrapeResponse>(
      await ck.batchScrape({
        urls: [`${server.url}/listing.html?a=2`, `${server.url}/listing.html?a=3`],
        appendToId: first.id.toUpperCase(),
      }),
    );
    expect(appended.id).toBe(first.id);
    expect(appended.warning).toBeUndefined();
    const running = ok<JobStatusResponse>(await ck.getBatchScrapeStatus(first.id));
    expect(running.total).toBe(3);
    const done = ok<JobStatusResponse>(await ck.waitForJob(first.id));
    expect(done).toMatchObject({ status: 'completed', total: 3, completed: 3, creditsUsed: 3 });
    expect(done.data.map((d) => new URL(d.metadata.sourceURL).search).sort()).toEqual(['?a=1', '?a=2', '?a=3']);

    expect(
      await ck.batchScrape({ urls: [`${server.url}/x`], appendToId: '00000000-0000-7000-8000-000000000000' }),
    ).toMatchObject({ success: false, error: 'Job not found' });
    expect(await ck.batchScrape({ urls: [`${server.url}/x`], appendToId: 'nope' })).toMatchObject({
      success: false,
      code: 'BAD_REQUEST',
    });
  });

  it("appendToId says which of the request's options the batch did not apply (it keeps its own)", async () => {
    const first = ok<BatchScrapeResponse>(
      await ck.batchScrape({ urls: [`${server.url}/listing.html?b=1`], formats: ['markdown', 'links'] }),
    );
    ok(await ck.waitForJob(first.id));
    const appended = ok<BatchScrapeResponse>(
      await ck.batchScrape({
        urls: [`${server.url}/listing.html?b=2`],
        formats: ['links', 'markdown'],
        onlyMainContent: false,
        waitFor: 10,
        webhook: { url: `${server.url}/hook` },
        appendToId: first.id,
      }),
    );
    // The same formats in another order are the same; the webhook differs (the batch had none).
    expect(appended.warning).toBe(
      "The batch goes on with the options it was started with: this request's `onlyMainContent`, `waitFor`, " +
        '`webhook` differ and were not applied to its URLs. Start a new batch to scrape with other options.',
    );
    const done = ok<JobStatusResponse>(await ck.waitForJob(first.id));
    const second = done.data.find((d) => d.metadata.sourceURL.endsWith('?b=2'))!;
    expect(second.links).toBeDefined();
    expect(second.markdown).toBeDefined();
  });

  it('appendToId with the header values and webhook the batch was started with says nothing differs', async () => {
    // The store keeps them sealed: before, they were compared sealed with the request's, and always differed.
    const options = {
      headers: { Authorization: 'Bearer t0ken' },
      webhook: { url: `${server.url}/hook/T0KEN?sig=1`, headers: { 'x-token': 't0ken' } },
    };
    const first = ok<BatchScrapeResponse>(
      await ck.batchScrape({ urls: [`${server.url}/listing.html?h=1`], ...options }),
    );
    ok(await ck.waitForJob(first.id));
    const same = ok<BatchScrapeResponse>(
      await ck.batchScrape({ urls: [`${server.url}/listing.html?h=2`], ...options, appendToId: first.id }),
    );
    expect(same.warning).toBeUndefined();
    const other = ok<BatchScrapeResponse>(
      await ck.batchScrape({
        urls: [`${server.url}/listing.html?h=3`],
        headers: { Authorization: 'Bearer other' },
        webhook: { ...options.webhook, url: `${server.url}/hook/OTHER` },
        appendToId: first.id,
      }),
    );
    expect(other.warning).toContain("this request's `headers`, `webhook` differ");
    ok(await ck.waitForJob(first.id));
  });

  it('zeroDataRetention keeps the job and its pages off disk and adds a credit per page', async () => {
    const url = `${server.url}/articles/first-post.html?zdr=1`;
    const started = ok<BatchScrapeResponse>(await ck.batchScrape({ urls: [url], zeroDataRetention: true }));
    const done = ok<JobStatusResponse>(await ck.waitForJob(started.id));
    expect(done.creditsUsed).toBe(2);
    expect(done.data[0]!.metadata.creditsUsed).toBe(2);

    // The on-disk store knows neither the job nor the page: a second engine on the same directory cannot see them.
    const other = new Crawlkit({ storeDir: dir, engine: 'http' });
    try {
      expect(await other.getBatchScrapeStatus(started.id)).toMatchObject({ success: false, error: 'Job not found' });
      const again = ok(await other.scrape({ url }));
      expect(again.data.metadata.cacheState).toBe('miss');
    } finally {
      await other.close();
    }
  });

  it('cancels at once and reports cancelled', async () => {
    const urls = Array.from({ length: 40 }, (_, i) => `${server.url}/slow/x${i}?ms=30`);
    const started = ok<BatchScrapeResponse>(await ck.batchScrape({ urls, maxConcurrency: 1 }));
    expect(await ck.cancelBatchScrape(started.id)).toEqual({ status: 'cancelled' });
    const status = ok<JobStatusResponse>(await ck.getBatchScrapeStatus(started.id));
    expect(status.status).toBe('cancelled');
    expect(status.completed).toBeLessThan(40);
    expect(await ck.cancelBatchScrape('00000000-0000-7000-8000-000000000000')).toMatchObject({
      success: false,
      error: 'Job not found',
    });
    expect(await ck.getBatchScrapeStatus('not-a-uuid')).toMatchObject({
      success: false,
      error: 'Invalid job ID format. Job ID must be a valid UUID.',
    });
    expect(await ck.batchScrape({ urls: [`${server.url}/listing.html`], appendToId: started.id })).toMatchObject({
      success: false,
      code: 'JOB_CANCELLED',
    });
  });

  it('a batch cancelled with a page in flight has no page left to do: total is what was scraped', async () => {
    const urls = [`${server.url}/held`, `${server.url}/slow/after-held?ms=1`];
    const started = ok<BatchScrapeResponse>(await ck.batchScrape({ urls, maxConcurrency: 1 }));
    await held.arrived;
    expect(await ck.cancelBatchScrape(started.id)).toEqual({ status: 'cancelled' });
    const expected = { status: 'cancelled', completed: 0, total: 0, data: [] };
    expect(ok<JobStatusResponse>(await ck.getBatchScrapeStatus(started.id))).toMatchObject(expected);
    // The page's fetch is aborted and its task given back: still nothing left to do.
    await held.closed;
    expect(ok<JobStatusResponse>(await ck.getBatchScrapeStatus(started.id))).toMatchObject(expected);
  });

  it('watch() of an id no store holds throws JOB_NOT_FOUND, as the status does', async () => {
    const missing = '01a229e7-131b-7000-a75b-000000000000';
    expect(await ck.getBatchScrapeStatus(missing)).toMatchObject({ success: false, code: 'JOB_NOT_FOUND' });
    const watched = (async () => {
      for await (const doc of ck.watch(missing)) void doc;
      return 'ended as a job of no pages';
    })();
    await expect(watched).rejects.toMatchObject({ code: 'JOB_NOT_FOUND' });
  });

  it('streams documents with watch() as they are stored', async () => {
    const urls = Array.from({ length: 6 }, (_, i) => `${server.url}/slow/w${i}?ms=20`);
    const started = ok<BatchScrapeResponse>(await ck.batchScrape({ urls, maxConcurrency: 2 }));
    const seen: string[] = [];
    for await (const doc of ck.watch(started.id)) seen.push(doc.metadata.sourceURL);
    expect(seen.sort()).toEqual([...urls].sort());
    expect(ok<JobStatusResponse>(await ck.getBatchScrapeStatus(started.id)).status).toBe('completed');
  });

  it('watch() with skip passes over the documents a resumed script already has, and refuses a bad skip', async () => {
    const urls = Array.from({ length: 6 }, (_, i) => `${server.url}/slow/k${i}?ms=1`);
    const started = ok<BatchScrapeResponse>(await ck.batchScrape({ urls, maxConcurrency: 2 }));
    const all: string[] = [];
    for await (const doc of ck.watch(started.id)) all.push(doc.metadata.sourceURL);
    const rest: string[] = [];
    for await (const doc of ck.watch(started.id, { skip: 4 })) rest.push(doc.metadata.sourceURL);
    expect(rest).toEqual(all.slice(4));
    const bad = (async () => {
      for await (const doc of ck.watch(started.id, { skip: -1 })) void doc;
    })();
    await expect(bad).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/`skip`/) });
  });

  it('answers a long list at once and moves the URLs past the first 500 into the store in the background', async () => {
    const urls = Array.from({ length: 600 }, (_, i) => `${server.url}/slow/b${i}?ms=0`);
    const started = ok<BatchScrapeResponse>(await ck.batchScrape({ urls, formats: ['rawHtml'], maxAge: 0 }));
    const done = ok<JobStatusResponse>(await ck.waitForJob(started.id));
    expect(done).toMatchObject({ status: 'completed', total: 600, completed: 600, creditsUsed: 600 });
    expect(done.data.map((d) => d.metadata.sourceURL).sort()).toEqual([...urls].sort());
  });

  it('runs two hundred URLs through the store and pages through all of them exactly once', async () => {
    const urls = Array.from({ length: 200 }, (_, i) => `${server.url}/slow/n${i}?ms=1`);
    const started = ok<BatchScrapeResponse>(await ck.batchScrape({ urls, formats: ['rawHtml'] }));
    ok(await ck.waitForJob(started.id));
    const seen = new Set<string>();
    let next: string | undefined = started.id;
    let pages = 0;
    while (next) {
      const page: JobStatusResponse = ok<JobStatusResponse>(await ck.getBatchScrapeStatus(next, { limit: 64 }));
      for (const doc of page.data) seen.add(doc.metadata.sourceURL);
      next = page.next;
      pages++;
    }
    expect(seen.size).toBe(200);
    expect(pages).toBe(4);
  });
});
