/**
 * The `changeTracking` format in a crawl whose site asks it to come back later: a page that answers 429 (or 503) is
 * fetched again after its `Retry-After`, and the refusal is not the page. It is neither compared nor kept in the
 * page's history, so the page that comes after is compared with the page's last real scrape.
 */
import { Crawlkit, type Document } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { busyOnce, sendPage, startRouteSite } from './helpers/route-site.ts';

let site: FixtureServer;
let ck: Crawlkit;
const busy = busyOnce();

beforeAll(async () => {
  site = await startRouteSite({
    '/': (_req, res) => sendPage(res, 'Home', '<p>The shop.</p><a href="/busy">Busy page</a>'),
    '/busy': busy.route,
  });
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await site.close();
});

async function busyPage(): Promise<Document> {
  busy.reset();
  const started = await ck.crawl({
    url: `${site.url}/`,
    sitemap: 'skip',
    scrapeOptions: { formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'] }] },
  });
  if (!started.success) throw new Error(`crawl refused: ${started.error}`);
  const done = await ck.waitForJob(started.id);
  if (!done.success || done.status !== 'completed') throw new Error(`crawl ended ${JSON.stringify(done)}`);
  expect(busy.requests).toBe(2);
  return done.data.find((d) => d.metadata.sourceURL === `${site.url}/busy`)!;
}

describe('change tracking of a page the site refused once with 429', () => {
  it('compares the page fetched on the retry with its last real scrape', async () => {
    const first = await busyPage();
    expect(first.metadata.statusCode).toBe(200);
    expect(first.changeTracking).toEqual({ previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' });

    const second = await busyPage();
    expect(second.changeTracking).toMatchObject({ changeStatus: 'same' });
    expect(second.changeTracking?.diff).toBeUndefined();
  });
});
