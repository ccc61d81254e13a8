/**
 * A site in Japanese names its pages in raw Unicode in its sitemap (`<loc>…/ニュース/記事3</loc>`) and its links
 * percent-encode them (a page's links are resolved as a browser does). A crawl stores each page once whichever form
 * found it first, and names it in one form: a `sourceURL` or a robots.txt refusal in raw Unicode beside the others
 * percent-encoded was a second key for the same page in an index, and robots.txt's refusals listed one URL twice.
 */
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';

const enc = (path: string) => path.split('/').map(encodeURIComponent).join('/');

let site: FixtureServer;
let ck: Crawlkit;

beforeAll(async () => {
  site = await startRouteSite({
    '/': (_req, res) =>
      sendPage(res, 'トップ', `<a href="/ニュース/記事1">記事1</a> <a href="${enc('/private/秘密')}">秘密</a>`),
    [enc('/ニュース/記事1')]: (_req, res) => sendPage(res, '記事1', '<p>本文です。</p>'),
    [enc('/ニュース/記事3')]: (_req, res) => sendPage(res, '記事3', '<p>サイトマップだけにある記事。</p>'),
    [enc('/private/秘密')]: (_req, res) => sendPage(res, '秘密', '<p>秘密。</p>'),
    '/robots.txt': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`User-agent: *\nDisallow: /private/\nSitemap: ${site.url}/sitemap.xml\n`);
    },
    '/sitemap.xml': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(
        '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
          ['/ニュース/記事3', '/ニュース/記事1', '/private/秘密']
            .map((p) => `<url><loc>${site.url}${p}</loc></url>`)
            .join('') +
          '</urlset>',
      );
    },
  });
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await site.close();
});

describe('a crawl of pages named in Unicode', () => {
  it('names every page and every robots.txt refusal percent-encoded, once', async () => {
    const started = await ck.crawl({ url: `${site.url}/`, limit: 10 });
    if (!started.success) throw new Error(started.error);
    const done = await ck.waitForJob(started.id);
    if (!done.success) throw new Error(done.error);
    const sources = done.data.map((d) => d.metadata.sourceURL).sort();
    expect(sources).toEqual(
      [`${site.url}/`, `${site.url}${enc('/ニュース/記事1')}`, `${site.url}${enc('/ニュース/記事3')}`].sort(),
    );
    const errors = await ck.getCrawlErrors(started.id);
    if (!('robotsBlocked' in errors)) throw new Error(errors.error);
    expect(errors.robotsBlocked).toEqual([`${site.url}${enc('/private/秘密')}`]);
  });
});
