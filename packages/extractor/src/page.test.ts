import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { extractMetadata } from './metadata.js';
import { extractPage } from './page.js';
import { warningText } from './page-warnings.js';

const site = (path: string) => readFileSync(fileURLToPath(new URL(`../../../fixtures/site/${path}`, import.meta.url)));
const page = (path: string) => site(path).toString('utf8');
const all = { markdown: true, html: true, links: true, images: true, metadata: true } as const;

describe('cleaned html (reference §21 items 19–21)', () => {
  it('keeps includeTags and drops excludeTags', () => {
    const out = extractPage('<div><p>Test</p><span>Remove me</span></div>', {
      url: 'https://example.com',
      includeTags: ['p'],
      excludeTags: ['span'],
      formats: { html: true },
    });
    expect(out.html).toContain('<p>Test</p>');
    expect(out.html).not.toContain('<span>');
  });

  it('serialises whole documents, closing unclosed tags and keeping entities and emoji', () => {
    const opts = { url: 'https://example.com', onlyMainContent: false, formats: { html: true } };
    expect(extractPage('', opts).html).toBe('<html><body></body></html>');
    expect(extractPage('<div>Unclosed div', opts).html).toBe('<html><body><div>Unclosed div</div></body></html>');
    const html = extractPage(
      '<html><head><style>x{}</style></head><body><script>bad()</script><noscript>n</noscript><p>a &amp; b 🎉 &lt;c&gt;</p></body></html>',
      opts,
    ).html!;
    expect(html).not.toMatch(/script|noscript|style|bad\(\)/);
    expect(html).toContain('a &amp; b 🎉 &lt;c&gt;');
  });

  it('makes links and image sources absolute (item 20)', () => {
    const out = extractPage(
      '<a href="#">h</a><a href="/pathurl">p</a><a href="//example.net/proturl">n</a><a href="?queryurl">q</a><img src="#q1">',
      { url: 'https://example.com', onlyMainContent: false, formats: { html: true } },
    );
    for (const url of [
      'https://example.com/#',
      'https://example.com/pathurl',
      'https://example.net/proturl',
      'https://example.com/?queryurl',
      'https://example.com/#q1',
    ]) {
      expect(out.html).toContain(`"${url}"`);
    }
  });
});

describe('links (reference §10.5, §21 item 22)', () => {
  const links = (html: string, url = 'https://example.org/foo/bar') =>
    extractPage(html, { url, onlyMainContent: false, formats: { links: true } }).links;

  it('resolves against <base href>', () => {
    expect(links('<base href="/"><a href="page.php">x</a>')).toEqual(['https://example.org/page.php']);
    expect(links('<base href="../"><a href="page.php">x</a>')).toEqual(['https://example.org/page.php']);
    expect(links('<base href="https://cdn.example.com/"><a href="assets/style.css">x</a>')).toEqual([
      'https://cdn.example.com/assets/style.css',
    ]);
    expect(links('<a href="page.php">x</a>')).toEqual(['https://example.org/foo/page.php']);
  });

  it('keeps mailto, drops fragment-only links, de-duplicates in order, repairs http:/ typos', () => {
    expect(
      links(
        '<a href="#top">t</a><a href=" /b ">b</a><a href="mailto:x@y.z">m</a><a href="/b">b</a><a href="http:/other.org/x">o</a><a href="javascript:void(0)">j</a>',
      ),
    ).toEqual(['https://example.org/b', 'mailto:x@y.z', 'http://other.org/x']);
  });

  it('resolves an empty href to the document itself, in links, html and markdown (never `[text]()`)', () => {
    const url = 'https://example.org/foo/bar?page=2#reviews';
    const html = '<p>See <a href="">this page</a> and <a href=" " title="Again">again</a>.</p>';
    const out = extractPage(html, {
      url,
      onlyMainContent: false,
      formats: { links: true, html: true, markdown: true },
    });
    const self = 'https://example.org/foo/bar?page=2';
    expect(out.links).toEqual([self]);
    expect(out.html).toContain(`<a href="${self}">this page</a>`);
    expect(out.markdown).toBe(`See [this page](${self}) and [again](${self} "Again").`);
    // under <base href> an empty href is the base, as a browser resolves it
    const based = extractPage(`<base href="/docs/">${html}`, { url, onlyMainContent: false, formats: { links: true } });
    expect(based.links).toEqual(['https://example.org/docs/']);
  });

  it("resolves a srcdoc frame's links in the markdown against <base href>, as the page's own", () => {
    const html =
      '<base href="https://cdn.example.com/site/"><p>Intro.</p>' +
      '<iframe srcdoc=\'<a href="guide.html">Guide</a> <a href="//video.example/embed/7">Film</a>\'></iframe>';
    const out = extractPage(html, {
      url: 'https://example.org/foo/bar',
      onlyMainContent: false,
      formats: { markdown: true },
    });
    expect(out.markdown).toContain('[Guide](https://cdn.example.com/site/guide.html)');
    expect(out.markdown).toContain('[Film](https://video.example/embed/7)');
  });

  it('comes from the cleaned html, so onlyMainContent drops navigation links', () => {
    const out = extractPage(page('articles/first-post.html'), {
      url: 'http://127.0.0.1/articles/first-post.html',
      formats: { links: true },
    });
    expect(out.links).toContain('http://127.0.0.1/docs/getting-started.html');
    expect(out.links).toContain('mailto:workshop@acme.test');
    expect(out.links).not.toContain('http://127.0.0.1/terms.html');
  });

  it('returns every link of the raw page for crawl discovery', () => {
    const out = extractPage(page('articles/first-post.html'), {
      url: 'http://127.0.0.1/articles/first-post.html',
      formats: { discoveryLinks: true },
    });
    expect(out.discoveryLinks).toContain('http://127.0.0.1/terms.html');
    expect(out.discoveryLinks).not.toContain('mailto:workshop@acme.test');
    expect(out.discoveryLinks?.some((l) => l.includes('#'))).toBe(false);
  });
});

describe('images (reference §10.5)', () => {
  it('collects src, srcset, lazy, picture, poster and background images', () => {
    const out = extractPage(page('articles/inline-images.html'), {
      url: 'http://127.0.0.1/articles/inline-images.html',
      onlyMainContent: false,
      formats: { images: true, html: true },
    });
    expect(out.images).toEqual(
      expect.arrayContaining([
        'http://127.0.0.1/img/lazy-photo.jpg',
        'http://127.0.0.1/img/hero.jpg',
        'http://127.0.0.1/img/wide.webp',
        'http://127.0.0.1/img/fallback.jpg',
      ]),
    );
    expect(out.images?.some((i) => i.startsWith('data:image/png;base64,'))).toBe(true);
    expect(out.html).toContain('src="http://127.0.0.1/img/lazy-photo.jpg"');
  });

  it('picks the largest srcset candidate into src', () => {
    const out = extractPage(page('articles/first-post.html'), {
      url: 'http://127.0.0.1/articles/first-post.html',
      formats: { html: true },
    });
    expect(out.html).toContain('src="http://127.0.0.1/img/plane-1200.jpg"');
  });
});

describe('metadata (reference §9.1)', () => {
  const meta = extractMetadata(page('articles/first-post.html'), 'http://127.0.0.1/articles/first-post.html');

  it('reads title, description, language, favicon and every meta tag', () => {
    expect(meta.title).toBe('Sharpening a Hand Plane | Acme Field Notes');
    expect(meta.description).toBe('How to sharpen a hand plane iron in five steps.');
    expect(meta.language).toBe('en');
    expect(meta.favicon).toBe('http://127.0.0.1/img/favicon.png');
    expect(meta.keywords).toBe('woodworking, hand plane, sharpening');
    expect(meta['twitter:card']).toBe('summary_large_image');
    expect(meta['og:title']).toBe('Sharpening a Hand Plane');
  });

  it('names Open Graph and article keys and turns repeats into arrays', () => {
    expect(meta.ogTitle).toBe('Sharpening a Hand Plane');
    expect(meta.ogSiteName).toBe('Acme Field Notes');
    expect(meta.ogLocaleAlternate).toEqual(['fr_FR', 'de_DE']);
    expect(meta.publishedTime).toBe('2026-03-14T09:00:00Z');
    expect(meta.articleTag).toEqual(['sharpening', 'tools']);
  });

  it('joins repeated descriptions and falls back to og:title', () => {
    const m = extractMetadata(
      '<meta name="description" content="a"><meta name="description" content="b"><meta property="og:title" content="OG">',
      'https://x.test/',
    );
    expect(m.description).toBe('a, b');
    expect(m.title).toBe('OG');
  });

  it('keeps language and robots single strings, as the v2 Document and the SDKs type them', () => {
    const m = extractMetadata(
      '<html lang="en-GB"><head><meta name="language" content="English"><meta name="robots" content="noindex">' +
        '<meta name="robots" content="max-image-preview:large"><meta name="keywords" content="a"><meta name="keywords" content="b">',
      'https://x.test/',
    );
    expect(m.language).toBe('en-GB');
    expect(m.robots).toBe('noindex, max-image-preview:large');
    expect(m.keywords).toEqual(['a', 'b']);
    expect(
      extractMetadata('<meta name="language" content="de"><meta name="language" content="en">', 'https://x.test/')
        .language,
    ).toBe('de');
  });
});

it('names the canonical URL, absolute against <base href>; several that differ as a list; none in the body', () => {
  const head = (links: string) => `<html><head><base href="/docs/">${links}</head><body><p>x</p></body></html>`;
  const url = 'https://x.test/a/page?utm_source=mail';
  expect(extractMetadata(head('<link rel="canonical" href="page">'), url).canonical).toBe('https://x.test/docs/page');
  expect(
    extractMetadata(head('<link rel="Canonical" href="/p"><link rel="canonical" href="https://x.test/p">'), url)
      .canonical,
  ).toBe('https://x.test/p');
  expect(
    extractMetadata(head('<link rel="canonical" href="/p"><link rel="canonical" href="https://other.test/q">'), url)
      .canonical,
  ).toEqual(['https://x.test/p', 'https://other.test/q']);
  const inBody = '<html><head></head><body><link rel="canonical" href="/p"></body></html>';
  expect(extractMetadata(inBody, url).canonical).toBeUndefined();
  const page = extractPage(head('<link rel="canonical" href="/p"><link rel="canonical" href="/q">'), {
    url,
    formats: { metadata: true },
  });
  expect(page.canonical).toBe('https://x.test/p');
});

describe("metadata.language without <html lang> (the HTML standard's order)", () => {
  const ja = '<head><meta http-equiv="Content-Language" content="ja-JP"></head><p>東京</p>';
  it('reads <meta http-equiv="content-language"> and then the Content-Language header', () => {
    expect(extractMetadata(ja, 'https://x.test/').language).toBe('ja-JP');
    expect(extractMetadata(ja, 'https://x.test/', { contentLanguage: 'de' }).language).toBe('ja-JP');
    expect(extractMetadata('<p>東京</p>', 'https://x.test/', { contentLanguage: ' ja ' }).language).toBe('ja');
    expect(
      extractPage('<p>東京</p>', { url: 'https://x.test/', contentLanguage: 'ko', formats: { metadata: true } }),
    ).toMatchObject({ metadata: { language: 'ko' } });
  });

  it('lets <html lang> win, and takes no list of languages', () => {
    expect(extractMetadata(`<html lang="fr">${ja}`, 'https://x.test/', { contentLanguage: 'de' }).language).toBe('fr');
    expect(extractMetadata('<p>x</p>', 'https://x.test/', { contentLanguage: 'de, en' }).language).toBeUndefined();
    expect(
      extractMetadata('<meta http-equiv="content-language" content="de, en">', 'https://x.test/').language,
    ).toBeUndefined();
  });
});

describe('main content', () => {
  it('drops navigation, cookie banner and footer but keeps the article', () => {
    const out = extractPage(page('articles/first-post.html'), {
      url: 'http://127.0.0.1/articles/first-post.html',
      formats: all,
    });
    expect(out.markdown).toContain('Sharpening a Hand Plane');
    expect(out.markdown).toContain('micro-bevel');
    expect(out.markdown).toContain('| Pine |');
    expect(out.markdown).not.toMatch(/Accept all cookies|All rights reserved|Skip to content/);
  });

  it('falls back to the whole page when the main content is empty', () => {
    const out = extractPage('<html><body><nav><a href="/x">Only navigation here</a></nav></body></html>', {
      url: 'https://example.com',
      formats: { markdown: true },
    });
    expect(out.markdown).toContain('Only navigation here');
  });

  it('matches excludeTags on the page as served with onlyMainContent, as v2 does (ancestors outside the container)', () => {
    const html =
      '<html><body><nav><a href="/">Home</a></nav><main><article><h1>Story</h1><p>The first paragraph of the story, ' +
      'long enough to be the main content of the page.</p><p>A second paragraph, which the caller excludes.</p>' +
      '</article></main><footer>Footer</footer></body></html>';
    const markdownWith = (excludeTags: string[]) =>
      extractPage(html, { url: 'https://example.com/story', excludeTags, formats: { markdown: true } }).markdown!;
    expect(markdownWith([])).toContain('which the caller excludes');
    // a selector through <main>, which the main content (the article) leaves out
    for (const selector of ['body > main > article > p:nth-of-type(2)', 'main p:last-child']) {
      const markdown = markdownWith([selector]);
      expect(markdown, selector).not.toContain('which the caller excludes');
      expect(markdown, selector).toContain('The first paragraph of the story');
    }
    // positional selectors count the page's elements once: the first paragraph is not taken as the next "second"
    expect(markdownWith(['article > p:nth-of-type(2)'])).toContain('The first paragraph of the story');
  });

  it('reports invalid selectors as warnings', () => {
    const out = extractPage('<p>x</p>', { url: 'https://example.com', excludeTags: ['p[['], formats: { html: true } });
    expect(out.warnings.map(warningText).join(' ')).toContain('invalid CSS selector');
  });
});

describe('hostile shapes: the whole page comes out, in order', () => {
  const url = 'https://example.com/page';

  it('keeps every one of 20,000 sibling paragraphs of the body', () => {
    const count = 20_000;
    const html = `<html><body>${Array.from({ length: count }, (_, i) => `<p>Paragraph ${i} of the page.</p>`).join('')}</body></html>`;
    const out = extractPage(html, { url, formats: { markdown: true, html: true } });
    const paragraphs = out.markdown!.split('\n\n');
    expect(paragraphs).toHaveLength(count);
    expect(paragraphs[0]).toBe('Paragraph 0 of the page.');
    expect(paragraphs[count - 1]).toBe(`Paragraph ${count - 1} of the page.`);
    expect(out.html!.match(/<p>/g)).toHaveLength(count);
  });

  it('keeps every one of 20,000 sibling links and images of the body', () => {
    const count = 20_000;
    const html = `<html><body>${Array.from({ length: count }, (_, i) => `<a href="/l/${i}">link ${i}</a> <img src="/i/${i}.png" alt="i${i}"> `).join('')}</body></html>`;
    const out = extractPage(html, {
      url,
      onlyMainContent: false,
      formats: { markdown: true, links: true, images: true },
    });
    expect(out.links).toHaveLength(count);
    expect(out.images).toHaveLength(count);
    expect(out.links![count - 1]).toBe(`https://example.com/l/${count - 1}`);
    expect(out.markdown).toContain(`[link ${count - 1}](https://example.com/l/${count - 1}) ![i${count - 1}]`);
    expect(out.markdown!.match(/\]\(https:\/\/example\.com\/l\//g)).toHaveLength(count);
  });

  it('keeps the text of a page nested far deeper than the parser nests', () => {
    const depth = 5_000;
    let html = '<html><body><main>';
    for (let i = 0; i < depth; i++)
      html += `<div>${i % 500 === 0 ? `<p>Level ${i} says something worth keeping.</p>` : ''}`;
    html += '</div>'.repeat(depth) + '<p>And the closing paragraph after the deep part.</p></main></body></html>';
    const out = extractPage(html, { url, onlyMainContent: false, formats: { markdown: true } });
    const levels = [...out.markdown!.matchAll(/Level (\d+) says/g)].map((m) => Number(m[1]));
    expect(levels).toEqual(Array.from({ length: depth / 500 }, (_, k) => k * 500));
    expect(out.markdown).toMatch(/worth keeping\.\n\nAnd the closing paragraph after the deep part\.$/);
  });
});

describe("a heading's permalink in a page's markdown", () => {
  it('drops it once the page made its links absolute, and keeps a link to another page', () => {
    const html = `<html><body><main><article><h1>Install</h1><p>Set it up in a few steps, as shown below in order.</p>
<h2 id="options"><a class="headerlink" href="#options">#</a>Options</h2><p>The options of the install command.</p>
<h2 id="faq">FAQ<a href="/docs/faq#top">¶</a></h2><p>Questions people asked about installing it.</p></article></main></body></html>`;
    const out = extractPage(html, { url: 'https://docs.acme.test/guide/install', formats: { markdown: true } });
    expect(out.markdown).toContain('## Options\n');
    expect(out.markdown).toContain('## FAQ[¶](https://docs.acme.test/docs/faq#top)');
  });
});
