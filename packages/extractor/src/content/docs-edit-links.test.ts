// A documentation site's "Edit this page" link (`page-controls.ts`): a short section page, whose `<article>` is too
// short to be the container and whose `<main>` is, keeps the link to edit it on the code host inside the container,
// where a long page leaves it outside. The link is a control of the page; a sentence about editing pages is the text.
import { describe, it } from 'vitest';

import { expectOnly, markdownOf } from './__fixtures__/news-site.js';

const SIDEBAR = Array.from(
  { length: 12 },
  (_, i) => `<li><a href="/docs/guide/page-${i}">Guide topic ${i}</a></li>`,
).join('');

const docsPage = (
  article: string,
  after: string,
) => `<!doctype html><html lang="en"><head><title>Guide | AcmeDocs</title></head>
<body><header class="navbar"><a href="/">AcmeDocs</a><nav><a href="/docs/guide/">guide</a> <a href="/docs/api/">api</a></nav></header>
<div class="layout"><aside class="sidebar"><nav aria-label="Docs sidebar"><ul>${SIDEBAR}</ul></nav></aside>
<main><div class="breadcrumbs"><a href="/">Home</a> › <a href="./">Guide</a></div><article class="markdown">${article}</article>
<nav class="pagination-nav"><a href="../">« Previous</a> <a href="./next">Next »</a></nav>${after}</main>
<aside class="toc"><p>On this page</p><ul><li><a href="#usage">Usage</a></li></ul></aside></div>
<footer><p>Copyright © 2026 Acme Inc.</p></footer></body></html>`;

describe("a docs page's edit link", () => {
  it('drops "Edit this page", "Edit on GitHub" and "Suggest an edit" standing alone in the main content', () => {
    for (const label of ['Edit this page', 'Edit on GitHub', 'Suggest an edit', 'Improve this page']) {
      const html = docsPage(
        '<h1>Guide overview</h1><p>Start here for the guide. See <a href="/docs/guide/a">topic A</a>.</p>',
        `<div class="edit-this-page"><a href="https://github.com/acme/docs/edit/main/docs/guide/index.md">${label}</a></div>`,
      );
      expectOnly(markdownOf(html).markdown, ['Guide overview', 'Start here for the guide'], [label, 'github.com']);
    }
  });

  it('keeps a sentence about editing a page', () => {
    const html = docsPage(
      '<h1>Contributing</h1><p>To fix a typo, <a href="https://github.com/acme/docs/edit/main/x.md">edit this page on GitHub</a> and open a pull request.</p>',
      '',
    );
    expectOnly(markdownOf(html).markdown, [
      'edit this page on GitHub](https://github.com/acme/docs/edit/main/x.md) and open',
    ]);
  });
});
