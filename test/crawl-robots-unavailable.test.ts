/**
 * A crawl whose robots.txt cannot be read (an error status, a dropped connection) goes on as if it allowed every
 * page, as upstream does, and its status says so and why: before, nothing told the user that its rules were skipped.
 * A sitemap it could not read is named too. A map, which reads robots.txt for its `Sitemap:` lines, says so as well.
 */
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';

let site: FixtureServer;
let ck: Crawlkit;
let robots: 'down' | 'dropped' | 'fine' | 'huge' = 'down';

/**
 * A robots.txt of 2 MB: a rule that refuses nothing here, comments, a rule the 500 KiB cut goes through right after
 * its `Disallow: /`, and past the cut a rule that would refuse `/a`.
 */
function hugeRobots(): string {
  const head = 'User-agent: *\nDisallow: /nothing-here\n';
  const cutRule = 'Disallow: /private-area\n';
  const padding = '# ' + 'x'.repeat(97) + '\n';
  let text = head;
  const cutAt = 500 * 1024 - 'Disallow: /'.length;
  while (text.length + padding.length <= cutAt) text += padding;
  text += '#'.repeat(cutAt - text.length - 1) + '\n' + cutRule;
  while (text.length < 2_000_000) text += padding;
  return text + 'Disallow: /a\n';
}
let sitemapDown = false;

beforeAll(async () => {
  site = await startRouteSite({
    '/robots.txt': (_req, res) => {
      if (robots === 'dropped') {
        res.socket?.destroy();
        return;
      }
      if (robots === 'huge') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(hugeRobots());
        return;
      }
      res.writeHead(robots === 'down' ? 503 : 200, { 'content-type': 'text/plain' });
      res.end(robots === 'down' ? 'Service unavailable' : 'User-agent: *\nDisallow: /private\n');
    },
    '/sitemap.xml': (_req, res) => {
      res.writeHead(sitemapDown ? 500 : 404, { 'content-type': 'text/plain' });
      res.end(sitemapDown ? 'Internal error' : 'Not found');
    },
    '/': (_req, res) => sendPage(res, 'Home', '<a href="/a">A</a> <a href="/private">Private</a>'),
    '/a': (_req, res) => sendPage(res, 'A', '<p>Page A.</p>'),
    '/private': (_req, res) => sendPage(res, 'Private', '<p>Not for crawlers.</p>'),
  });
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await site.close();
});

async function crawl(sitemap: 'skip' | 'include' = 'skip') {
  const started = await ck.crawl({ url: `${site.url}/`, sitemap });
  if (!started.success) throw new Error(started.error);
  const done = await ck.waitForJob(started.id);
  if (!done.success) throw new Error(done.error);
  return done;
}

describe('a crawl whose robots.txt cannot be read', () => {
  it('crawls every page and says in its status that robots.txt answered 503', async () => {
    robots = 'down';
    const done = await crawl();
    expect(done.data).toHaveLength(3);
    expect(done.warning).toBe(
      `${site.url}/robots.txt could not be read (answered 503): the crawl went on as if it allowed every page, ` +
        'as the hosted service does.',
    );
  });

  it('names a dropped connection as the reason', async () => {
    robots = 'dropped';
    const done = await crawl();
    expect(done.data).toHaveLength(3);
    expect(done.warning).toMatch(/robots\.txt could not be read \(SCRAPE_CONNECTION_ERROR: Connection to .+\): /);
  });

  it('names a sitemap that answered 500, after robots.txt', async () => {
    robots = 'down';
    sitemapDown = true;
    const done = await crawl('include');
    sitemapDown = false;
    expect(done.data).toHaveLength(3);
    expect(done.warning).toBe(
      `${site.url}/robots.txt could not be read (answered 503): the crawl went on as if it allowed every page, ` +
        `as the hosted service does. The sitemap ${site.url}/sitemap.xml could not be read (answered 500).`,
    );
  });

  it('reads the first 500 KiB of a larger robots.txt, without the line cut through, and says the rest was ignored', async () => {
    robots = 'huge';
    const done = await crawl();
    // Neither the rule past the cut (`Disallow: /a`) nor the half rule at the cut (`Disallow: /`) applies.
    expect(done.data.map((d) => d.metadata.sourceURL).sort()).toEqual(['/', '/a', '/private'].map((p) => site.url + p));
    expect(done.warning).toBe(
      `${site.url}/robots.txt is larger than 500 KiB: its rules were read from its first 512000 bytes and the rest ` +
        'was ignored, as Google ignores it.',
    );
  });

  it('has no such warning when robots.txt answers', async () => {
    robots = 'fine';
    const done = await crawl();
    expect(done.data).toHaveLength(2);
    expect(done.warning).toBe(
      'One or more pages were unable to be crawled because the robots.txt file prevented this. Please use the ' +
        '/scrape endpoint instead.',
    );
  });
});

describe('a map whose robots.txt cannot be read whole', () => {
  async function map() {
    const mapped = await ck.map({ url: `${site.url}/` });
    if (!mapped.success) throw new Error(mapped.error);
    return mapped;
  }

  it('lists the pages and says in its warning that robots.txt answered 503, and what the map went without', async () => {
    robots = 'down';
    const mapped = await map();
    expect(mapped.links.map((l) => l.url).sort()).toEqual([site.url, `${site.url}/a`, `${site.url}/private`]);
    expect(mapped.warning).toBe(
      `${site.url}/robots.txt could not be read (answered 503): the map went on without the sitemaps it may name.`,
    );
  });

  it('says a robots.txt larger than 500 KiB was read in part', async () => {
    robots = 'huge';
    expect((await map()).warning).toBe(
      `${site.url}/robots.txt is larger than 500 KiB: its first 512000 bytes were read and the sitemaps named past ` +
        'them were not.',
    );
  });

  it('has no robots.txt warning when robots.txt answers', async () => {
    robots = 'fine';
    expect((await map()).warning).toBeUndefined();
  });
});
