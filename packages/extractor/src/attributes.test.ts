import { describe, expect, it } from 'vitest';

import { extractPage } from './index.js';
import { warningText } from './page-warnings.js';

const page = `<!doctype html><html><head><meta property="og:image" content="https://cdn.test/a.jpg"></head><body>
<nav><a href="/home" data-Track="nav">Home</a><a href="/docs">Docs</a><a>no href</a></nav>
<main><article><h1>Title</h1><p>Body text of the article, long enough to be the main content of the page.</p>
<img src="/x.png" alt="X"><img src="/y.png"></article></main></body></html>`;

describe('the attributes format', () => {
  it('reads each attribute on every element its selector matches in the whole page, in order', () => {
    const out = extractPage(page, {
      url: 'https://site.test/',
      formats: {
        markdown: true,
        attributes: [
          { selector: 'nav a', attribute: 'href' },
          { selector: 'img', attribute: 'alt' },
          { selector: 'meta[property="og:image"]', attribute: 'content' },
          { selector: 'a', attribute: 'data-track' },
          { selector: 'section', attribute: 'id' },
        ],
      },
    });
    expect(out.attributes).toEqual([
      { selector: 'nav a', attribute: 'href', values: ['/home', '/docs'] },
      { selector: 'img', attribute: 'alt', values: ['X'] },
      { selector: 'meta[property="og:image"]', attribute: 'content', values: ['https://cdn.test/a.jpg'] },
      { selector: 'a', attribute: 'data-track', values: ['nav'] },
      { selector: 'section', attribute: 'id', values: [] },
    ]);
    // Main content still leaves the navigation out of the markdown.
    expect(out.markdown).not.toContain('Docs');
  });

  it('answers an invalid selector with no values and a warning naming it', () => {
    const out = extractPage(page, {
      url: 'https://site.test/',
      formats: { attributes: [{ selector: 'a[', attribute: 'href' }] },
    });
    expect(out.attributes).toEqual([{ selector: 'a[', attribute: 'href', values: [] }]);
    expect(out.warnings.map(warningText).join(' ')).toContain(
      'Ignored an invalid CSS selector in the attributes format: "a["',
    );
  });
});
