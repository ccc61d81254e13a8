/**
 * Issue 17, render what needs rendering: through the public API, client-side apps served on 127.0.0.1 (a hash-routed
 * docs app, a Next.js-style blog) are rendered by real Chromium with `engineReason` saying why, or read from the text
 * they embed when the browser is off or `engine: 'http'` is forced; static pages with many scripts stay on HTTP.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DOCS_CHAPTERS } from '../fixtures/apps/docs-app.ts';
import { NEXT_POSTS } from '../fixtures/apps/next-blog.ts';
import { SITE_ROOT, startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { withSharedBrowser } from './helpers/fixture-engine.ts';
import { data, ISOLATED_ARGS } from './helpers/scrape.ts';

/** Script loads of real sites, added to existing static fixtures: a news site's 40 scripts, a docs site's search. */
const NEWS_SCRIPTS = [
  '<script async src="https://www.googletagmanager.com/gtag/js?id=G-NEWS"></script>',
  '<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag("js",new Date());</script>',
  '<script src="https://cdn.cookielaw.org/scripttemplates/otSDKStub.js" data-domain-script="x"></script>',
  ...Array.from({ length: 36 }, (_, i) => `<script src="/static/js/chunk-${i}.8f3a.js" defer></script>`),
  `<script>window.__ADS__={slots:["top","rail","inline"],refresh:30};</script>`,
].join('\n');
const DOCS_SEARCH = [
  '<script type="application/json" id="search-index">',
  JSON.stringify({
    docs: [
      {
        url: '/docs/install',
        body: 'Install the package with your package manager and import it where you need it. '.repeat(4),
      },
      {
        url: '/docs/config',
        body: 'Every option has a documented default, and the configuration file is optional. '.repeat(4),
      },
      {
        url: '/docs/deploy',
        body: 'Deploying means building once and copying the output folder to any static host. '.repeat(4),
      },
    ],
  }),
  '</script><script src="/assets/search.js" defer></script><script src="/assets/docs.js" defer></script>',
].join('');

/** Ten static pages of the existing suites, each served with a real site's scripts. */
const STATIC_PAGES: [file: string, scripts: string][] = [
  ['articles/first-post.html', NEWS_SCRIPTS],
  ['articles/base-href.html', NEWS_SCRIPTS],
  ['articles/inline-images.html', NEWS_SCRIPTS],
  ['forum/thread.html', NEWS_SCRIPTS],
  ['products/widget.html', NEWS_SCRIPTS],
  ['branding/light.html', NEWS_SCRIPTS],
  ['branding/dark.html', NEWS_SCRIPTS],
  ['listing.html', NEWS_SCRIPTS],
  ['index.html', DOCS_SEARCH],
  ['docs/getting-started.html', DOCS_SEARCH],
];

let server: FixtureServer;
let ck: Crawlkit;
let noBrowser: Crawlkit;
let httpOnly: Crawlkit;

beforeAll(async () => {
  server = await startFixtureServer({
    routes: {
      '/with-scripts/*': async (_req, res, { url }) => {
        const index = Number(url.pathname.split('/').pop());
        const [file, scripts] = STATIC_PAGES[index]!;
        const html = await readFile(join(SITE_ROOT, file), 'utf8');
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(html.replace(/<\/body>/i, `${scripts}\n</body>`));
      },
      '/moved': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          '<html><head><meta http-equiv="refresh" content="0; url=/articles/first-post.html"></head>' +
            '<body><p>This page has moved. Redirecting…</p></body></html>',
        );
      },
    },
  });
  // The first rendered scrape starts Chromium: about 4 s on an idle machine, over 20 s at load 14 (12 busy processes on
  // 2 cores), where the docs app was captured still showing "Loading ..." once the 10 s settle wait ran out. Time is
  // not what these tests check: the settle wait may take the whole timeout, and the timeout leaves room for load.
  ck = new Crawlkit(
    await withSharedBrowser({ store: 'memory', browser: { smartWaitMaxMs: 40_000 }, timeoutMs: 40_000 }, ISOLATED_ARGS),
  );
  noBrowser = new Crawlkit({ store: 'memory', browser: { executablePath: '/nonexistent/chromium' } });
  httpOnly = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await Promise.all([ck?.close(), noBrowser?.close(), httpOnly?.close()]);
  await server?.close();
});

describe('client-side apps are rendered, and engineReason says why', () => {
  it('renders a hash-routed docs app whose shell has navigation, a footer and "Loading ..."', async () => {
    const doc = data(await ck.scrape({ url: `${server.url}/apps/docs/#docs/let` }));
    expect(doc.metadata).toMatchObject({ engine: 'browser', engineReason: 'js-required:hash-route' });
    expect(doc.markdown, doc.warning).toContain('# Block-scoped variables with let');
    expect(doc.markdown).toContain('The temporal dead zone means reading the variable');
    expect(doc.markdown).toContain('total += price;');
    expect(doc.markdown).not.toContain('Loading ...');
    // Another route of the same shell is another page, not a cache hit of the first.
    const other = data(await ck.scrape({ url: `${server.url}/apps/docs/#/docs/const` }));
    expect(other.metadata).toMatchObject({ engine: 'browser', engineReason: 'js-required:hash-route' });
    expect(other.metadata.cacheState).not.toBe('hit');
    expect(other.markdown).toContain('# Constants with const');
  }, 90_000);

  it('renders a Next.js-style page whose text is only in __NEXT_DATA__', async () => {
    const doc = data(await ck.scrape({ url: `${server.url}/apps/next/posts/sourdough-starter` }));
    expect(doc.metadata).toMatchObject({ engine: 'browser', engineReason: 'js-required:hydration' });
    expect(doc.markdown).toContain(NEXT_POSTS['sourdough-starter']!.paragraphs[1]);
    expect(doc.warning).toBeUndefined();
  }, 60_000);

  it('follows a meta refresh stub to the page it sends to, as a browser does', async () => {
    const doc = data(await ck.scrape({ url: `${server.url}/moved`, maxAge: 0 }));
    // Before: http:static, the stub's "This page has moved. Redirecting…" as the page.
    expect(doc.metadata).toMatchObject({ engine: 'browser', engineReason: 'js-required:meta-refresh' });
    expect(doc.metadata.url).toBe(`${server.url}/articles/first-post.html`);
    expect(doc.markdown).not.toContain('Redirecting');
    expect(doc.markdown!.length).toBeGreaterThan(100);
  }, 60_000);

  it('keeps static pages with many scripts (a news site, a docs search index) on HTTP', async () => {
    for (const [index, [file]] of STATIC_PAGES.entries()) {
      const doc = data(await ck.scrape({ url: `${server.url}/with-scripts/${index}`, maxAge: 0 }));
      expect({ file, engine: doc.metadata.engine, reason: doc.metadata.engineReason }).toEqual({
        file,
        engine: 'http',
        reason: 'http:static',
      });
      expect(doc.markdown!.length).toBeGreaterThan(100);
    }
  }, 60_000);
});

describe('without a browser, the text a page embeds is read, and the warning says so', () => {
  const post = NEXT_POSTS['sourdough-starter']!;

  it('extracts a Next.js page from __NEXT_DATA__ when the browser is unavailable', async () => {
    const doc = data(await noBrowser.scrape({ url: `${server.url}/apps/next/posts/sourdough-starter` }));
    expect(doc.metadata).toMatchObject({
      engine: 'http',
      engineReason: 'js-required:hydration+browser-unavailable',
      title: 'Crumb & Crust',
    });
    expect(doc.markdown).toContain(`# ${post.title}`);
    expect(doc.markdown).toContain(post.paragraphs[2]);
    expect(doc.markdown).not.toContain('Loading…');
    expect(doc.warning).toMatch(
      /looks client-rendered \(js-required:hydration\).*browser is not available.*hydration state/,
    );
    // What to fix, not only that the browser was missing.
    expect(doc.warning).toContain('The browser could not start: Chromium not found at /nonexistent/chromium');
    expect(doc.warning).toContain('apt-get install chromium');
  });

  it('extracts from JSON-LD articleBody with engine: http, and says the page looks client-rendered', async () => {
    const doc = data(await httpOnly.scrape({ url: `${server.url}/apps/next/ld/proofing-basket` }));
    expect(doc.metadata).toMatchObject({ engine: 'http', engineReason: 'engine:http' });
    expect(doc.markdown).toContain(NEXT_POSTS['proofing-basket']!.paragraphs[1]);
    expect(doc.warning).toMatch(/looks client-rendered \(js-required:placeholder\).*engine is 'http'.*JSON-LD/);
  });

  it('keeps a fastMode scrape on HTTP and warns when nothing embedded can stand in', async () => {
    const doc = data(await ck.scrape({ url: `${server.url}/apps/docs/#docs/functions`, fastMode: true }));
    expect(doc.metadata).toMatchObject({ engine: 'http', engineReason: 'http:static' });
    expect(doc.markdown).not.toContain(DOCS_CHAPTERS.functions!.title);
    expect(doc.warning).toMatch(/looks client-rendered \(js-required:hash-route\).*fastMode.*may be incomplete/);
    // That shell was not cached: the same scrape without fastMode renders it.
    const rendered = data(await ck.scrape({ url: `${server.url}/apps/docs/#docs/functions` }));
    expect(rendered.metadata.engine).toBe('browser');
    expect(rendered.markdown).toContain(`# ${DOCS_CHAPTERS.functions!.title}`);
  }, 60_000);
});
