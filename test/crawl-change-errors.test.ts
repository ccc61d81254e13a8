/**
 * A crawl's change feed around a server error: a page that answers 500 for one run says nothing of its content, as
 * for the `changeTracking` format in the same crawl. It is neither `removed` on the day of the 500 nor `new` the day
 * after; a 404 is `removed` in both. A monitor's check tells it as an error of the page.
 */
import { Crawlkit, type Document } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';
import { closedCheck, ok } from './monitors-helpers.ts';

let site: FixtureServer;
let ck: Crawlkit;
let answer: 200 | 404 | 500 = 200;

beforeAll(async () => {
  site = await startRouteSite({
    '/': (_req, res) => sendPage(res, 'Home', '<p>The shop.</p><a href="/flaky">Flaky page</a>'),
    '/flaky': (_req, res) => {
      if (answer === 200) return sendPage(res, 'Flaky', '<p>Hand planes, 40 EUR.</p>');
      res.writeHead(answer, { 'content-type': 'text/html' });
      res.end(answer === 500 ? '<h1>Internal server error</h1>' : '<h1>Not found</h1>');
    },
  });
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await site.close();
});

/** One nightly run: the flaky page's document and the feed's entries. */
async function run(): Promise<{ page: Document; feed: { url: string; change: string }[] }> {
  const started = await ck.crawl({
    url: `${site.url}/`,
    sitemap: 'skip',
    tag: 'nightly',
    scrapeOptions: { formats: ['markdown', { type: 'changeTracking', tag: 'nightly' }] },
  });
  if (!started.success) throw new Error(`crawl refused: ${started.error}`);
  const done = await ck.waitForJob(started.id);
  if (!done.success || done.status !== 'completed') throw new Error(`crawl ended ${JSON.stringify(done)}`);
  const changes = await ck.getCrawlChanges(started.id);
  if (!changes.success) throw new Error(`changes refused: ${changes.error}`);
  const page = done.data.find((d) => d.metadata.sourceURL === `${site.url}/flaky`)!;
  return { page, feed: changes.data.filter((entry) => entry.url.endsWith('/flaky')) };
}

describe('the change feed of a page that answers a server error for a run', () => {
  it('agrees with changeTracking: no change on the 500, same after it, removed on a 404', async () => {
    const first = await run();
    expect(first.page.metadata.crawlChange).toBe('new');
    expect(first.page.changeTracking?.changeStatus).toBe('new');

    answer = 500;
    const outage = await run();
    expect(outage.page.metadata.statusCode).toBe(500);
    expect(outage.page.changeTracking).toBeUndefined();
    expect(outage.page.metadata.crawlChange).toBeUndefined();
    expect(outage.feed).toEqual([]);

    answer = 200;
    const back = await run();
    expect(back.page.changeTracking?.changeStatus).toBe('same');
    expect(back.page.metadata.crawlChange).toBe('same');
    expect(back.feed).toEqual([{ url: `${site.url}/flaky`, change: 'same' }]);

    answer = 404;
    const gone = await run();
    expect(gone.page.changeTracking?.changeStatus).toBe('removed');
    expect(gone.page.metadata.crawlChange).toBe('removed');
    expect(gone.feed).toEqual([{ url: `${site.url}/flaky`, change: 'removed' }]);
  });
});

describe('a monitor check of a crawl whose page answers a server error', () => {
  it('tells the page as an error with its status, not removed', async () => {
    answer = 200;
    const { id } = ok(
      await ck.monitors.create({
        name: 'shop',
        schedule: { text: 'every day' },
        targets: [{ id: 'site', type: 'crawl', url: `${site.url}/`, crawlOptions: { sitemap: 'skip' } }],
      }),
    ).data;
    const first = await closedCheck(ck, id, ok(await ck.monitors.run(id)).data.id);
    expect(first.pages.find((p) => p.url.endsWith('/flaky'))?.status).toBe('new');

    answer = 500;
    const outage = await closedCheck(ck, id, ok(await ck.monitors.run(id)).data.id);
    expect(outage.pages.filter((p) => p.url.endsWith('/flaky'))).toEqual([
      expect.objectContaining({
        status: 'error',
        statusCode: 500,
        error: 'The page answered 500: it was not compared.',
      }),
    ]);
    expect(outage.summary).toMatchObject({ removed: 0, error: 1 });
  });
});
