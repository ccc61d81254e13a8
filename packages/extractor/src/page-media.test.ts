// A media index's pages (QA media day): what the `images` format and the markdown read of lazy images, `<picture>`
// sources and video posters in the main content, the default a scrape runs with.
import { describe, expect, it } from 'vitest';

import { extractPage } from './page.js';

const url = 'http://127.0.0.1/photos/harbour';
const prose =
  '<p>The harbour at dawn is a quiet place where the fishing boats come in one by one and unload their catch.</p>';
const article = (body: string) =>
  `<html><head><title>Harbour</title></head><body><nav><a href="/">Home</a></nav><main><article><h1>Harbour</h1>` +
  `${prose}${body}${prose}</article></main></body></html>`;

describe('lazy images', () => {
  it("reads WP Rocket's data-lazy-src and data-lazy-srcset behind a data: SVG placeholder, made absolute", () => {
    const svg =
      "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20viewBox='0%200%20800%20600'%3E%3C/svg%3E";
    const out = extractPage(
      article(
        `<img src="${svg}" data-lazy-src="/img/boat.jpg" data-lazy-srcset="/img/boat-400.jpg 400w, /img/boat-800.jpg 800w" alt="Boat">`,
      ),
      { url, formats: { markdown: true, images: true, html: true } },
    );
    expect(out.markdown).toContain('![Boat](http://127.0.0.1/img/boat-800.jpg)');
    expect(out.images).toEqual(['http://127.0.0.1/img/boat-400.jpg', 'http://127.0.0.1/img/boat-800.jpg']);
    expect(out.html).toContain('src="http://127.0.0.1/img/boat-800.jpg"');
  });

  it("reads jQuery Lazy Load's data-original behind a data: GIF", () => {
    const gif = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
    const out = extractPage(article(`<img src="${gif}" data-original="nets.jpg" alt="Nets">`), {
      url,
      formats: { markdown: true, images: true },
    });
    expect(out.markdown).toContain('![Nets](http://127.0.0.1/photos/nets.jpg)');
    expect(out.images).toEqual(['http://127.0.0.1/photos/nets.jpg']);
  });

  it('keeps a data: image that no lazy attribute stands behind', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const out = extractPage(article(`<img src="${png}" alt="Inline">`), { url, formats: { images: true } });
    expect(out.images).toEqual([png]);
  });
});

describe('media elements of the main content in the images format (reference §10.5)', () => {
  it("lists a <picture>'s source candidates and a video's poster, and writes neither in the markdown", () => {
    const out = extractPage(
      article(
        '<picture><source type="image/avif" srcset="/img/pier.avif 1x, /img/pier@2x.avif 2x">' +
          '<source type="image/webp" srcset="/img/pier.webp"><img src="/img/pier.jpg" alt="Pier"></picture>' +
          '<video controls poster="/img/poster.jpg"><source src="/media/clip.mp4" type="video/mp4">' +
          'Your browser does not support video.</video>',
      ),
      { url, formats: { markdown: true, images: true } },
    );
    expect(out.images).toEqual([
      'http://127.0.0.1/img/pier.avif',
      'http://127.0.0.1/img/pier@2x.avif',
      'http://127.0.0.1/img/pier.webp',
      'http://127.0.0.1/img/pier.jpg',
      'http://127.0.0.1/img/poster.jpg',
    ]);
    expect(out.markdown).toContain('![Pier](http://127.0.0.1/img/pier.jpg)');
    expect(out.markdown).not.toMatch(/avif|webp|poster|clip\.mp4|does not support/);
  });
});

describe('alt text in the markdown', () => {
  it('escapes what CommonMark would read as emphasis, code or HTML, so a renderer gives back the alt as written', () => {
    const out = extractPage(
      article('<img src="/img/chart.png" alt="*Sponsored* chart of 2_000 boats, `v2` <b> and a path C:\\">'),
      { url, formats: { markdown: true } },
    );
    // before: ![*Sponsored* chart of 2_000 boats, `v2` <b> and a path C:\\](…), which renders as the alt
    // "Sponsored chart of 2_000 boats, v2 <b> and a path C:\" (the stars and backticks taken as markup)
    expect(out.markdown).toContain(
      '![\\*Sponsored\\* chart of 2_000 boats, \\`v2\\` \\<b> and a path C:\\\\](http://127.0.0.1/img/chart.png)',
    );
  });
});
