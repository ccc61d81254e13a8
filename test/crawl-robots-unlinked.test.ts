/**
 * robots.txt and the URLs of a crawl that no link names: the seed, queued before robots.txt is read, and a redirect's
 * target, known once the redirect is followed (every link is judged as it is found). A seed that robots.txt disallows
 * is not fetched: it is listed in `robotsBlocked`, and the crawl ends with no page and the robots.txt warning (as a
 * disallowed link is). A page redirected into a disallowed path is not kept: it is the crawl's error, as a target
 * outside the crawl's rules is. `ignoreRobotsTxt` crawls both.
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
    '/': (_req, res) => sendPage(res, 'Home', '<a href="/moved">Moved</a> <a href="/open">Open</a>'),
    '/moved': (_req, res) => {
      res.writeHead(301, { location: '/private/moved-here' }).end();
    },
    '/open': (_req, res) => sendPage(res, 'Open', '<p>Anyone may crawl this.</p>'),
  });
  base = site.url;
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await site.close();
});

async function crawl(body: { ignoreRobotsTxt?: boolean }, seed = '/private/') {
  const before = site.requests.length;
  const started = await ck.crawl({
    url: `${base}${seed}`,
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

describe('a crawl redirected into a path robots.txt disallows', () => {
  const stored = (data: { metadata: { sourceURL: string; url?: string } }[]) =>
    data.map((d) => `${d.metadata.sourceURL.slice(base.length)} -> ${d.metadata.url!.slice(base.length)}`).sort();

  it('keeps no page there and says why in the errors', async () => {
    const { status, errors } = await crawl({}, '/');
    expect(stored(status.data)).toEqual(['/ -> /', '/open -> /open']);
    expect(errors.errors).toMatchObject([
      { url: `${base}/moved`, code: 'CRAWL_DENIAL', error: expect.stringContaining('(ROBOTS_TXT)') },
    ]);
  });

  it('keeps it with ignoreRobotsTxt', async () => {
    const { status, errors } = await crawl({ ignoreRobotsTxt: true }, '/');
    expect(stored(status.data)).toEqual([
      '/ -> /',
      '/moved -> /private/moved-here',
      '/open -> /open',
      '/private/more -> /private/more',
    ]);
    expect(errors.errors).toEqual([]);
  });
});
