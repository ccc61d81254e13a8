import { describe, expect, it } from 'vitest';

import { embeddedContent } from './embedded-text.js';
import { isRouteFragment, judgeRendering } from './judge.js';
import { pageSignals } from './page-signals.js';

const URL_ = 'https://docs.example.org/guide/';
/** The judge's reason, the same whether it counts the whole page or stops once the verdict is settled. */
const judge = (text: string, url = URL_, status = 200) => {
  const page = { url, status, contentType: 'text/html', headers: {}, text };
  const reason = judgeRendering(page).reason;
  expect(judgeRendering(page, { countAll: false }).reason).toBe(reason);
  return reason;
};

const NAV = `<header class="site-header"><a href="/" class="logo">Quill Docs</a>
  <nav><ul><li><a href="/guide/">Guide</a></li><li><a href="/api/">API reference</a></li><li><a href="/blog/">Blog</a></li>
  <li><a href="/community/">Community</a></li><li><a href="/changelog/">Changelog</a></li></ul></nav>
  <button class="theme-toggle" type="button">Toggle theme</button><input type="search" placeholder="Search"></header>`;
const COOKIES = `<div class="cookie-banner" role="dialog"><p>We use cookies to understand how the documentation is used
  and to remember your theme.</p><button>Accept all</button><button>Reject</button></div>`;
const FOOTER = `<footer><p>© 2026 Quill contributors. Released under the MIT licence.</p>
  <a href="/privacy/">Privacy</a> · <a href="/imprint/">Imprint</a> · <a href="https://github.com/quill">GitHub</a></footer>`;
const BUNDLE = '<script src="/assets/vendor.3f9a.js" defer></script><script src="/assets/app.81c2.js" defer></script>';
const ARTICLE = `<h1>Declaring variables</h1>
  <p>${'Variables hold the values a program works with: numbers, text, lists and the results of calculations. '.repeat(4)}</p>
  <p>${'A declaration names a variable and gives it a first value, which later statements may read or change. '.repeat(4)}</p>`;

/** A page that looks like a real site: header with navigation, cookie bar, footer, and `main` in between. */
function page(main: string, { head = '', scripts = BUNDLE } = {}): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Quill Docs</title>${head}</head>
<body>${NAV}<main id="content">${main}</main>${FOOTER}${COOKIES}${scripts}</body></html>`;
}

describe('judgeRendering: each signal alone', () => {
  it('leaves a complete page with scripts on HTTP', () => {
    expect(judge(page(ARTICLE))).toBeUndefined();
  });

  it('loading placeholders: "Loading…" text, skeleton and spinner classes, aria-busy', () => {
    expect(judge(page('<p class="status">Loading…</p>'))).toBe('js-required:placeholder');
    expect(judge(page('<div class="chapter-skeleton"><div class="line"></div><div class="line"></div></div>'))).toBe(
      'js-required:placeholder',
    );
    expect(judge(page('<div class="spinner-border" role="status"></div>'))).toBe('js-required:placeholder');
    expect(judge(page('<section aria-busy="true"><h2>Release notes</h2></section>'))).toBe('js-required:placeholder');
    // Without scripts nothing will ever replace the placeholder: the HTML is all there is.
    expect(judge(page('<p>Loading…</p>', { scripts: '' }))).toBeUndefined();
  });

  it('a placeholder beside the full content (a comments widget still loading) is no reason', () => {
    expect(judge(page(`${ARTICLE}<div class="comments"><span class="spinner"></span> Loading comments…</div>`))).toBe(
      undefined,
    );
  });

  it('hash routes on a page with scripts', () => {
    const shell = page(ARTICLE);
    expect(judge(shell, 'https://docs.example.org/#/guide/variables')).toBe('js-required:hash-route');
    expect(judge(shell, 'https://docs.example.org/#!/guide/variables')).toBe('js-required:hash-route');
    expect(judge(shell, 'https://docs.example.org/#docs/let')).toBe('js-required:hash-route');
    expect(judge(shell, 'https://docs.example.org/guide/#declaring-variables')).toBeUndefined();
    expect(judge(page(ARTICLE, { scripts: '' }), 'https://docs.example.org/#/guide/variables')).toBeUndefined();
  });

  it('a main-content candidate tiny next to the scripts', () => {
    const bundle = `<script>${'window.__app.register(function(){return 1});'.repeat(120)}</script>${BUNDLE}`;
    expect(judge(page('<div class="chapter"></div>', { scripts: bundle }))).toBe('js-required:thin-content');
    // The same tiny page with one small script is a short page, not an app.
    expect(judge(page('<div class="chapter"><p>Short note.</p></div>', { scripts: '<script>1</script>' }))).toBe(
      undefined,
    );
  });

  it('hydration state holding the text the visible HTML lacks', () => {
    const chapter = {
      title: 'Declaring variables',
      body: ARTICLE.replace(/<[^>]+>/g, ' ').trim(),
      related: 'Constants are variables whose value is fixed when they are declared and never changes afterwards.',
    };
    const nextData = `<script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { pageProps: { chapter } } })}</script>`;
    expect(judge(page('<div class="chapter"></div>', { scripts: nextData + BUNDLE }))).toBe('js-required:hydration');
    const nuxt = `<script>window.__NUXT__=${JSON.stringify({ data: [chapter] })};</script>`;
    expect(judge(page('<article></article>', { scripts: nuxt + BUNDLE }))).toBe('js-required:hydration');
    const state = `<script>window.__INITIAL_STATE__ = JSON.parse(${JSON.stringify(JSON.stringify({ chapter }))});</script>`;
    expect(judge(page('', { scripts: state + BUNDLE }))).toBe('js-required:hydration');
    const json = `<script type="application/json" data-state>${JSON.stringify({ chapter })}</script>`;
    expect(judge(page('', { scripts: json + BUNDLE }))).toBe('js-required:hydration');
    // Server-rendered: the same state, and the text is in the HTML too.
    expect(judge(page(ARTICLE, { scripts: nextData + BUNDLE }))).toBeUndefined();
  });

  it('an empty mount point, a noscript wall, scripts and no text, an empty response', () => {
    expect(judge('<body><div id="root"></div><script src="/main.js"></script></body>')).toBe('js-required:app-shell');
    expect(judge(page('<div id="app"></div>'))).toBe('js-required:app-shell');
    expect(judge('<body><div id="__next"> </div><p>Loading…</p></body>')).toBe('js-required:app-shell');
    expect(judge('<body><app-root></app-root></body>')).toBe('js-required:app-shell');
    const wall =
      '<body><noscript>You need to enable JavaScript to run this app.</noscript><div id="x">Hi</div><script>1</script></body>';
    expect(judge(wall)).toBe('js-required:noscript-wall');
    expect(judge('<body><noscript><p>This site requires JavaScript.</p></noscript><main></main></body>')).toBe(
      'js-required:noscript-wall',
    );
    expect(judge('<body><div id="content"></div><script>render()</script></body>')).toBe('js-required:script-only');
    expect(judge('')).toBe('js-required:empty-body');
    // Markup with neither text nor scripts: a browser would show the same nothing.
    expect(judge('<html><head><title>Empty</title></head><body>  </body></html>')).toBeUndefined();
  });

  it('counts the text of a <noscript> that is not a JavaScript wall as content (a forum’s crawler view)', () => {
    const posts = `<noscript data-path="/t/1"><div class="post"><p>${'A reply with real text in it. '.repeat(20)}</p></div></noscript>`;
    expect(judge(page(`<div id="main-outlet"></div>${posts}`))).toBeUndefined();
  });

  it('a meta refresh that sends the page at once elsewhere (a redirect stub), with or without scripts', () => {
    const stub = (content: string, main = '<p>Redirecting…</p>') =>
      `<html><head><meta http-equiv="Refresh" content="${content}"></head><body>${main}</body></html>`;
    expect(judge(stub('0; url=/guide/install'))).toBe('js-required:meta-refresh');
    expect(judge(stub("0;URL='https://docs.example.org/new/'"))).toBe('js-required:meta-refresh');
    expect(judge(stub('0, /guide/moved', ARTICLE))).toBe('js-required:meta-refresh');
    // A delay is an interstitial the page shows first; a refresh of the page itself reloads it.
    expect(judge(stub('5; url=/guide/install', ARTICLE))).toBeUndefined();
    expect(judge(stub('0'))).toBeUndefined();
    expect(judge(stub('0; url=/guide/#intro'))).toBeUndefined();
    expect(judge(stub('0; url=javascript:alert(1)'))).toBeUndefined();
    expect(judge(page(ARTICLE, { head: '<meta name="refresh" content="0; url=/x">' }))).toBeUndefined();
  });

  it('judges only successful HTML', () => {
    expect(judge('', URL_, 404)).toBeUndefined();
    expect(judgeRendering({ url: URL_, status: 200, contentType: 'application/json', text: '{}' }).reason).toBe(
      undefined,
    );
    expect(judgeRendering({ url: URL_, status: 200, contentType: 'application/pdf' }).reason).toBeUndefined();
  });
});

describe('judgeRendering with countAll: false', () => {
  const long = page(ARTICLE.repeat(20));
  const at = (url: string, text = long) => ({ url, status: 200, contentType: 'text/html', text });

  it('stops reading once the content is past every threshold: the same verdict, a partial count', () => {
    const whole = judgeRendering(at(URL_));
    const settled = judgeRendering(at(URL_), { countAll: false });
    expect(whole.reason).toBeUndefined();
    expect(settled.reason).toBeUndefined();
    expect(settled.contentChars).toBeGreaterThanOrEqual(500);
    expect(settled.contentChars).toBeLessThan(whole.contentChars! / 4);
    expect(pageSignals(long, { enoughContent: 500 }).complete).toBe(false);
    expect(pageSignals(long).complete).toBe(true);
  });

  it('counts all of a page short of the thresholds, and of a page whose fragment is a route', () => {
    const short = page('<p>A short note.</p>');
    expect(judgeRendering(at(URL_, short), { countAll: false })).toEqual(judgeRendering(at(URL_, short)));
    const routed = at('https://docs.example.org/#/guide/variables');
    expect(judgeRendering(routed, { countAll: false })).toEqual(judgeRendering(routed));
    expect(judgeRendering(routed).reason).toBe('js-required:hash-route');
  });
});

describe('pageSignals', () => {
  it('measures content outside navigation, page header and footer, dialogs and cookie bars', () => {
    const signals = pageSignals(page('<p>Twelve chars</p>'));
    expect(signals.contentChars).toBe('Twelve chars'.length);
    expect(signals.textChars).toBeGreaterThan(200);
    expect(signals.scripts).toBe(2);
    expect(signals.externalScripts).toBe(2);
  });

  it('keeps the header and footer of an article and the classes of the body as content', () => {
    const html = `<body class="loading has-sidebar cookies-not-set"><article><header><h1>A title here</h1></header>
      <p>Body text.</p><footer>Filed under tools</footer></article></body>`;
    expect(pageSignals(html).contentChars).toBe(
      'A title here'.length + 'Body text.'.length + 'Filed under tools'.length,
    );
  });

  it('survives broken and hostile markup in linear time', () => {
    const deep = '<div>'.repeat(50_000) + 'text' + '</span>'.repeat(50_000);
    const started = performance.now();
    expect(pageSignals(deep).contentChars).toBe(4);
    expect(pageSignals('<p>a<!-- never closed <p>b').contentChars).toBe(1);
    expect(pageSignals('<script>never closed <p>b').scripts).toBe(1);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('embeddedContent', () => {
  it('reads the article body of JSON-LD, else the prose of the hydration state', () => {
    const body =
      'The first paragraph of the story, long enough to be prose for sure.\n\nAnd a second paragraph follows it here.';
    const ld = pageSignals(
      `<script type="application/ld+json">${JSON.stringify({ '@graph': [{ '@type': 'NewsArticle', articleBody: body.repeat(2) }] })}</script>`,
    );
    const content = embeddedContent(ld);
    expect(content?.source).toBe('json-ld');
    expect(content?.html).toContain('<p>The first paragraph of the story');

    const html = `<p>${'Hydrated text of the chapter, in HTML, as a CMS stores it. '.repeat(5)}</p>`;
    const next = pageSignals(
      `<script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { a: { html }, nav: ['Home', 'Blog'] } })}</script>`,
    );
    expect(embeddedContent(next)).toMatchObject({ source: 'hydration', html });
    expect(embeddedContent(pageSignals('<p>No data here.</p>'))).toBeUndefined();
  });
});

describe('isRouteFragment', () => {
  it('knows client-side routes from in-page anchors', () => {
    for (const route of ['#/', '#/a/b', '#!/a', '#!a', '#docs/let', '#a.b/c'])
      expect(isRouteFragment(route)).toBe(true);
    for (const anchor of ['', '#', '#top', '#section-2', '#docs']) expect(isRouteFragment(anchor)).toBe(false);
  });
});
