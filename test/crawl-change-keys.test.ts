/**
 * A crawl's change feed keys a page by the URL it ends at. A crawl stores a page reached under two URLs (a redirect
 * and its target) once, under the URL it fetched first, and which one that is changes from run to run with the site's
 * links and the order of the responses. Keyed by the URL asked for, an unchanged page was `new` under one URL and
 * `removed` under the other.
 */
import { Crawlkit, type Document } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';

let site: FixtureServer;
let base: string;
let ck: Crawlkit;
/** Where the home page links the guide: its own URL, or an old URL that redirects to it. */
let guideLink = '/guide';

beforeAll(async () => {
  const unchanged = (path: string) => `<p>The text of ${path}, unchanged between the crawls.</p>`;
  site = await startRouteSite({
    '/': (_req, res) =>
      sendPage(res, 'Home', `<p>The manual.</p><a href="${guideLink}">Guide</a> <a href="/faq">FAQ</a>`),
    '/old-guide': (_req, res) => {
      res.writeHead(301, { location: '/guide' }).end();
    },
    '/guide': (_req, res) => sendPage(res, 'guide', unchanged('/guide')),
    '/faq': (_req, res) => sendPage(res, 'faq', unchanged('/faq')),
  });
  base = site.url;
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await site.close();
});

async function crawl(): Promise<{ id: string; documents: Document[] }> {
  const started = await ck.crawl({ url: `${base}/`, tag: 'manual', sitemap: 'skip' });
  if (!started.success) throw new Error(`crawl refused: ${started.error}`);
  const done = await ck.waitForJob(started.id);
  if (!done.success || done.status !== 'completed') throw new Error(`crawl ended ${JSON.stringify(done)}`);
  return { id: started.id, documents: done.data };
}

const changes = (documents: Document[]) =>
  Object.fromEntries(
    documents.map((d) => [
      `${new URL(d.metadata.sourceURL).pathname} -> ${new URL(d.metadata.url!).pathname}`,
      d.metadata.crawlChange,
    ]),
  );

async function removed(id: string): Promise<string[]> {
  const feed = await ck.getCrawlChanges(id);
  if (!feed.success) throw new Error(`changes refused: ${feed.error}`);
  return feed.data.filter((entry) => entry.change === 'removed').map((entry) => new URL(entry.url).pathname);
}

/** The home page links the guide by `link` now: the crawl finds it as `guide` (`sourceURL -> url`), the same page. */
async function relinkAndCrawl(link: string, guide: string): Promise<void> {
  guideLink = link;
  const { id, documents } = await crawl();
  expect(changes(documents)).toEqual({ '/ -> /': 'changed', [guide]: 'same', '/faq -> /faq': 'same' });
  expect(await removed(id)).toEqual([]);
}

describe('the change feed of a page reached under another URL', () => {
  it('is the same page whether the crawl reached it by its URL or by a redirect to it', async () => {
    guideLink = '/guide';
    const first = await crawl();
    expect(changes(first.documents)).toEqual({ '/ -> /': 'new', '/guide -> /guide': 'new', '/faq -> /faq': 'new' });
    // The old URL, which redirects to the same, unchanged guide; and back.
    await relinkAndCrawl('/old-guide', '/old-guide -> /guide');
    await relinkAndCrawl('/guide', '/guide -> /guide');
  });
});
