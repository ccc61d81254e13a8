/**
 * A crawl folds a page into the page its `rel=canonical` names only when the two hold the same main content. Before,
 * it folded by the canonical alone: a thread's page 2 naming page 1 was in no document (and, fetched first, kept
 * page 1 from being fetched at all), a CMS naming one page of the site on every page crawled to one page; and a
 * canonical above the page was ignored, so a forum's per-post URLs serving the whole topic stored it once a post.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { jobBackends, type JobBackend } from './helpers/job-backends.ts';
import { startRouteSite } from './helpers/route-site.ts';
import { testRedis } from './setup/redis.ts';

const testRedisUrl = await testRedis();
let site: FixtureServer;

function page(res: ServerResponse, title: string, canonical: string | undefined, main: string, aside = ''): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  const link = canonical === undefined ? '' : `<link rel="canonical" href="${canonical}">`;
  res.end(
    `<!doctype html><html><head><title>${title}</title>${link}</head>` +
      `<body><main>${main}</main><aside>${aside}</aside></body></html>`,
  );
}

const posts = (from: number, to: number) =>
  Array.from(
    { length: to - from + 1 },
    (_, i) =>
      `<article><h2>Post ${from + i}</h2><p>Reply number ${from + i} of the thread, long enough to be read as ` +
      `the text of a forum post by the extractor, which keeps it.</p></article>`,
  ).join('');

/** A forum thread of two pages: page 2 names page 1 as its canonical (as some forums and Q&A sites write). */
function thread(name: string) {
  return (req: { url?: string }, res: ServerResponse) => {
    const second = new URL(req.url ?? '/', 'http://x').searchParams.get('page') === '2';
    const nav = `<a href="/thread/${name}">1</a> <a href="/thread/${name}?page=2">2</a>`;
    page(
      res,
      `Thread ${name}${second ? ', page 2' : ''}`,
      `/thread/${name}`,
      `<h1>Thread ${name}</h1>${second ? posts(21, 25) : posts(1, 20)}${nav}`,
    );
  };
}

/** A topic whose per-post URLs (`/t/topic/123/N`) serve the whole topic, naming the topic as canonical. */
const topic = (_req: unknown, res: ServerResponse) =>
  page(
    res,
    'A topic',
    '/t/topic/123',
    `<h1>A topic</h1>${posts(1, 5)}${[2, 3, 4, 5].map((n) => `<a href="/t/topic/123/${n}">#${n}</a>`).join(' ')}` +
      '<a href="/a/2001">share</a>',
    // What differs between the copies is outside the main content (a view counter).
    `Viewed ${Math.floor(Math.random() * 1000)} times`,
  );

/** A blog post whose comments' reply links (`?replytocom=N`) serve the post again, naming it as canonical. */
const blogPost = (_req: unknown, res: ServerResponse) =>
  page(
    res,
    'A post',
    '/blog/post',
    '<h1>A post</h1><p>The text of the blog post, long enough to be the main content of the page for the extractor.</p>' +
      '<a href="/blog/post?replytocom=1">Reply</a> <a href="/blog/post?replytocom=2">Reply</a>',
  );

/** Fetches of the counted topic: its counters move at each one, as a forum's do. */
let counted = 0;

/**
 * A topic whose counters are inside the main content (Discourse's "Last active N minutes ago · N views"), served
 * under its per-post URLs too: no two fetches hold the same text.
 */
const countedTopic = (_req: unknown, res: ServerResponse) => {
  const n = ++counted;
  page(
    res,
    'A counted topic',
    '/d/topic/7',
    `<h1>A counted topic</h1><p>Last active ${n} minutes ago · ${1_200 + n} views · ${n} replies</p>${posts(1, 5)}` +
      [2, 3].map((post) => `<a href="/d/topic/7/${post}">#${post}</a>`).join(' '),
  );
};

/** A product and its variant naming it as canonical: the same text, another price. */
const lamp = (price: string) => (_req: unknown, res: ServerResponse) =>
  page(
    res,
    'A lamp',
    '/shop/lamp',
    `<h1>A lamp</h1><p>A brass desk lamp with a linen shade, made to order in our workshop.</p><p>Price: ${price}</p>` +
      '<a href="/shop/lamp?size=large">Large</a>',
  );

/** A CMS naming one page of the site (`/welcome`) as every page's canonical: each page holds its own text. */
const cms = (path: string) => (_req: unknown, res: ServerResponse) =>
  page(
    res,
    `CMS ${path}`,
    '/cms/welcome',
    `<h1>CMS page ${path}</h1><p>The text of the page ${path}, which no other page of the site holds.</p>` +
      ['welcome', 'a', 'b'].map((p) => `<a href="/cms/${p}">${p}</a>`).join(' '),
  );

beforeAll(async () => {
  site = await startRouteSite({
    // Thread one is linked page 2 first (page 2 fetched before page 1), thread two page 1 first.
    '/forum/': (_req, res) =>
      page(
        res,
        'Forum',
        undefined,
        '<h1>Forum</h1><a href="/thread/one?page=2">one, page 2</a> <a href="/thread/one">one</a> ' +
          '<a href="/thread/two">two</a> <a href="/thread/two?page=2">two, page 2</a>',
      ),
    '/thread/one': thread('one'),
    '/thread/two': thread('two'),
    '/thread/three': thread('three'),
    '/t/topic/123': topic,
    '/t/topic/123/2': topic,
    '/t/topic/123/3': topic,
    '/t/topic/123/4': topic,
    '/t/topic/123/5': topic,
    // Stack Exchange's answer link: a redirect to the question's URL with the answer's id, serving the question.
    '/a/2001': (_req, res) => void res.writeHead(302, { location: '/t/topic/123/2001#2001' }).end(),
    '/t/topic/123/2001': topic,
    '/blog/post': blogPost,
    '/d/topic/7': countedTopic,
    '/d/topic/7/2': countedTopic,
    '/d/topic/7/3': countedTopic,
    '/shop/lamp': (req, res) => lamp(req.url?.includes('size=large') ? '$55.00' : '$40.00')(req, res),
    '/cms/welcome': cms('/cms/welcome'),
    '/cms/a': cms('/cms/a'),
    '/cms/b': cms('/cms/b'),
  });
});

afterAll(async () => {
  await site.close();
});

/** The stored documents' URLs (path and query) of a crawl from `path` (the whole site), one page at a time, sorted. */
async function crawled(setup: JobBackend, path: string): Promise<string[]> {
  const ck = setup.client;
  const crawl = await ck.crawl({
    url: `${site.url}${path}`,
    sitemap: 'skip',
    maxConcurrency: 1,
    crawlEntireDomain: true,
  });
  if (!crawl.success) throw new Error(crawl.error);
  const result = await ck.waitForJob(crawl.id);
  if (!result.success) throw new Error(result.error);
  return result.data
    .map((d) => {
      const url = new URL(d.metadata.sourceURL);
      return url.pathname + url.search;
    })
    .sort();
}

for (const [name, factory, available] of jobBackends(testRedisUrl)) {
  describe.skipIf(!available)(
    `a crawl folds a page into its canonical only when it holds the same content (${name})`,
    () => {
      let setup: JobBackend;
      beforeAll(async () => {
        setup = await factory();
      });
      afterAll(async () => {
        await setup.close();
      });

      it("keeps a thread's page 2 naming page 1, whichever of the two is fetched first", async () => {
        const before = site.requests.length;
        expect(await crawled(setup, '/forum/')).toEqual([
          '/forum/',
          '/thread/one',
          '/thread/one?page=2',
          '/thread/two',
          '/thread/two?page=2',
        ]);
        // Page 2 fetched first did not keep page 1 from being fetched.
        const fetched = site.requests.slice(before).map((r) => r.path);
        expect(fetched.indexOf('/thread/one?page=2')).toBeLessThan(fetched.indexOf('/thread/one'));
      });

      it('fetches page 1 when page 2, fetched before any link to page 1, names it as canonical', async () => {
        // Before: page 2 claimed page 1's key, and page 1's own link was then skipped: page 1 was never fetched.
        expect(await crawled(setup, '/thread/three?page=2')).toEqual(['/thread/three', '/thread/three?page=2']);
      });

      it('stores a topic once, its per-post URLs (a canonical above them) folded into it', async () => {
        const before = site.requests.length;
        expect(await crawled(setup, '/t/topic/123')).toEqual(['/t/topic/123']);
        // Each copy was fetched (and compared), the answer's link through its redirect.
        const fetched = site.requests.slice(before).map((r) => r.path);
        expect(fetched).toEqual(
          expect.arrayContaining(['/t/topic/123/2', '/t/topic/123/5', '/a/2001', '/t/topic/123/2001']),
        );
      });

      it('folds the ?replytocom= copies of a post into the post', async () => {
        expect(await crawled(setup, '/blog/post')).toEqual(['/blog/post']);
      });

      it('folds the per-post URLs of a topic whose counters move inside its main content', async () => {
        // Before: every fetch held other counts, and each post URL was a document of its own.
        expect(await crawled(setup, '/d/topic/7')).toEqual(['/d/topic/7']);
      });

      it('keeps a variant naming its product when only the price differs', async () => {
        expect(await crawled(setup, '/shop/lamp')).toEqual(['/shop/lamp', '/shop/lamp?size=large']);
      });

      it('folds nothing of a CMS that names one page as every page’s canonical', async () => {
        expect(await crawled(setup, '/cms/a')).toEqual(['/cms/a', '/cms/b', '/cms/welcome']);
      });
    },
  );
}
