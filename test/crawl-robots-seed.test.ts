/**
 * robots.txt and a crawl's seed: the seed is queued before robots.txt is read, and every other URL is judged as it is
 * found. A seed that robots.txt disallows is not fetched: it is listed in `robotsBlocked`, and the crawl ends with no
 * page and the robots.txt warning (as a disallowed link is), unless `ignoreRobotsTxt` is set.
 */
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';

let site: FixtureServer;
let base: string;
let ck: Crawlkit;

beforeAll(async () => {
  site = await startRouteSite({
    '/robots.txt': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n');
    },
    '/private/*': (req, res) => sendPage(res, req.url ?? '', '<a href="/private/more">More</a>'),
  });
  base = site.url;
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await site.close();
});

async function crawl(body: { ignoreRobotsTxt?: boolean }) {
  const before = site.requests.length;
  const started = await ck.crawl({
    url: `${base}/private/`,
    sitemap: 'skip',
    scrapeOptions: { maxAge: 0 },
    ...body,
  });
  if (!started.success) throw new Error(`crawl refused: ${started.error}`);
  const status = await ck.waitForJob(started.id);
  if (!status.success) throw new Error(`crawl failed: ${status.error}`);
  const errors = await ck.getCrawlErrors(started.id);
  if (!('robotsBlocked' in errors)) throw new Error(`errors refused: ${errors.error}`);
  const pages = site.requests.slice(before).map((r) => r.path);
  return { status, errors, pages: pages.filter((path) => path !== '/robots.txt') };
}

describe('a crawl whose seed robots.txt disallows', () => {
  it('does not fetch it, lists it as robots-blocked and warns', async () => {
    const { status, errors, pages } = await crawl({});
    expect(pages).toEqual([]);
    expect(status).toMatchObject({ status: 'completed', total: 0, completed: 0, creditsUsed: 0, data: [] });
    expect(status.warning).toMatch(/robots\.txt file prevented this/);
    expect(errors.robotsBlocked).toEqual([`${base}/private/`]);
    expect(errors.errors).toEqual([]);
  });

  it('crawls it with ignoreRobotsTxt', async () => {
    const { status, errors, pages } = await crawl({ ignoreRobotsTxt: true });
    expect(pages.sort()).toEqual(['/private/', '/private/more']);
    expect(status.data).toHaveLength(2);
    expect(errors.robotsBlocked).toEqual([]);
  });
});
