/** extractMainContent on article pages: the article kept whole, the chrome around it dropped. */
import type { Element } from 'domhandler';
import { describe, expect, it } from 'vitest';

import { count, extract, page, prose } from './__fixtures__/synthetic-page.js';

describe('extractMainContent: articles', () => {
  const article = page(
    `<main><article><h1>Growing tomatoes</h1><p class="byline">By Ada Gardener</p>${prose('tomatoes', 4)}
      <h2>Watering</h2>${prose('watering', 2)}
      <div class="share-bar"><a href="https://x.test/share">Share on X</a><a href="https://fb.test/share">Facebook</a></div>
      <section><h3>Related articles</h3><ul><li><a href="/r1">Growing peppers at home</a></li><li><a href="/r2">Compost basics</a></li><li><a href="/r3">Raised beds</a></li></ul></section>
      <div id="comments" class="comments-area"><h3>2 comments</h3><p>Great post, thanks, I learned a lot from this one.</p><form class="comment-form"><label>Comment</label><textarea></textarea><button>Post comment</button></form></div>
    </article></main>`,
  );

  it('keeps the article text, headings and order', () => {
    const { doc, text } = extract(article);
    expect(text).toContain('tomatoes paragraph 1');
    expect(text).toContain('watering paragraph 2');
    expect(text.indexOf('tomatoes paragraph 4')).toBeLessThan(text.indexOf('watering paragraph 1'));
    expect(count(doc, 'h2')).toBe(1);
  });

  it('drops navigation, header, footer, cookie banner and sidebar', () => {
    const { text } = extract(article);
    for (const junk of ['Products', 'About us', 'cookies', 'All rights reserved', 'Popular posts', 'Winter pruning']) {
      expect(text).not.toContain(junk);
    }
  });

  it('drops a mega menu of links even when it holds most of the page text', () => {
    const items = Array.from({ length: 120 }, (_, i) => `<li><a href="/c/${i}">Department number ${i}</a></li>`);
    const { text } = extract(
      page(`<div class="intro">${prose('menu', 3)}</div>`, {
        before: `<nav class="mega"><ul>${items.join('')}</ul></nav>`,
      }),
    );
    expect(text).toContain('menu paragraph 3');
    expect(text).not.toContain('Department number 7');
  });

  it('drops a consent manager or modal dialog even when it holds most of the page text', () => {
    const purposes = Array.from(
      { length: 12 },
      (_, i) =>
        `<h4>Purpose ${i}</h4><p>These technologies help us measure purpose ${i} of the site, and they may be set by partners. They are described here at length.</p>`,
    ).join('');
    const { text } = extract(
      page(`<div class="intro">${prose('shoes', 2)}</div>`, {
        after: `<div id="consent-sdk"><div role="dialog" aria-modal="true"><h3>Privacy preference center</h3>${purposes}</div></div><div class="push-popover">${purposes.replaceAll('Purpose', 'Prompt')}</div>`,
      }),
    );
    expect(text).toContain('shoes paragraph 2');
    expect(text).not.toContain('Purpose 3');
    expect(text).not.toContain('Prompt 3');
  });

  it('drops a page footer of legal footnotes even when it holds most of the page text', () => {
    const notes = Array.from(
      { length: 12 },
      (_, i) =>
        `<p>Footnote ${i}: financing is available to qualified customers, subject to approval and limits, and terms apply.</p>`,
    ).join('');
    const { text } = extract(
      `<html><body><div class="hero"><h1>Watch</h1>${prose('watch', 2)}</div><footer class="legal">${notes}</footer></body></html>`,
    );
    expect(text).toContain('watch paragraph 2');
    expect(text).not.toContain('Footnote 3');
  });

  it('drops a navigation flyout with descriptions even when it holds most of the page text', () => {
    const flyouts = Array.from(
      { length: 10 },
      (_, i) =>
        `<li><h4>Category ${i}</h4><p>Guides, calculators and reviews to help you decide about category ${i}, written by our editors.</p><a href="/c/${i}">Explore all</a></li>`,
    ).join('');
    const { text } = extract(
      `<html><body><header role="banner"><nav><ul>${flyouts}</ul></nav></header><main><h1>Rates</h1>${prose('rates', 2)}</main></body></html>`,
    );
    expect(text).toContain('rates paragraph 2');
    expect(text).not.toContain('Category 3');
  });

  it('drops a menu named main-navigation or main_menu: "main" there qualifies the menu, it does not say content', () => {
    const dropdown = (id: string, cls: string): string =>
      `<div id="${id}" class="${cls}"><ul><li><a href="/services">Services</a><div class="mega-dropdown"><p>Our advisers help owner-led companies with their books, their taxes and their growth plans, from the first hire to a sale.</p><ul><li><a href="/s/accounting">Traditional accounting</a></li><li><a href="/s/advisory">Corporate advisory</a></li><li><a href="/s/tech">Technology solutions</a></li></ul></div></li><li><a href="/insights">Insights</a></li></ul></div>`;
    for (const [id, cls] of [
      ['main-navigation', 'main-navigation mega'],
      ['site-menu', 'main_menu sticky'],
    ] as const) {
      const { text } = extract(
        page(`<div class="wrap">${dropdown(id, cls)}<h1>Payroll outsourcing</h1>${prose('payroll', 3)}</div>`),
      );
      expect(text).toContain('payroll paragraph 3');
      expect(text).not.toContain('owner-led companies');
      expect(text).not.toContain('Corporate advisory');
    }
  });

  it('keeps a link-only menu when nearly nothing else would remain', () => {
    const items = Array.from({ length: 30 }, (_, i) => `<li><a href="/c/${i}">Department number ${i}</a></li>`);
    const { text } = extract(`<html><body><nav><ul>${items.join('')}</ul></nav><p>Short.</p></body></html>`);
    expect(text).toContain('Department number 7');
  });

  it('drops share bars, related-article lists and the comment section of an article', () => {
    const { text } = extract(article);
    expect(text).not.toContain('Share on X');
    expect(text).not.toContain('Related articles');
    expect(text).not.toContain('Compost basics');
    expect(text).not.toContain('Great post');
    expect(text).not.toContain('Post comment');
  });

  it('never returns script or style text, and returns a document with a body', () => {
    const { doc, text } = extract(article);
    expect(text).not.toContain('script text never shows');
    expect(text).not.toContain('color:red');
    expect((doc.children[0] as Element).name).toBe('body');
  });

  it('prefers the single <main> of the page when the walk stops above it', () => {
    const teaser = (i: number): string =>
      `<div class="tile"><p>Teaser tile ${i}: a sentence of marketing text that reads like prose, with commas.</p></div>`;
    const { text } = extract(
      `<html><body><div class="wrap"><div class="top">${[0, 1, 2, 3, 4, 5].map(teaser).join('')}</div><main>${prose('main', 4)}</main><div class="bottom">${[6, 7, 8, 9, 10, 11].map(teaser).join('')}</div></div></body></html>`,
    );
    expect(text).toContain('main paragraph 4');
    expect(text).not.toContain('Teaser tile');
  });

  it('drops result counts, pagers and short app/legal/report labels', () => {
    const { text } = extract(
      page(
        `<main><p>Showing 24 of 291 results</p><div>Page 1 of 8</div>${prose('labels', 3)}<div>Open in app</div><span><a href="/r">Report</a></span><p><a href="/privacy">Privacy Policy</a></p></main>`,
      ),
    );
    expect(text).toContain('labels paragraph 3');
    for (const gone of ['Showing 24', 'Page 1 of 8', 'Open in app', 'Report', 'Privacy Policy']) {
      expect(text).not.toContain(gone);
    }
  });

  it('keeps code blocks, tables and nested lists inside the content', () => {
    const { doc, text } = extract(
      page(
        `<div class="content">${prose('setup', 3)}<pre><code class="language-ts">const answer = 42;</code></pre>
        <table><thead><tr><th>Option</th><th>Default</th></tr></thead><tbody><tr><td>timeout</td><td>30000</td></tr></tbody></table>
        <ul><li>First step<ul><li>Nested detail</li></ul></li><li>Second step</li></ul>${prose('usage', 2)}</div>`,
      ),
    );
    expect(count(doc, 'pre')).toBe(1);
    expect(count(doc, 'table')).toBe(1);
    expect(count(doc, 'ul')).toBe(2);
    expect(text).toContain('const answer = 42;');
    expect(text).toContain('Nested detail');
  });

  it('removes hidden elements and calls to action, keeps visible text', () => {
    const { text } = extract(
      page(
        `<div class="post">${prose('visible', 3)}<div style="display:none">${prose('invisible', 2)}</div><div hidden>hidden attribute text</div><p><a class="btn btn-primary" href="/signup">Get started today</a></p><p>Advertisement</p></div>`,
      ),
    );
    expect(text).toContain('visible paragraph 3');
    expect(text).not.toContain('invisible paragraph');
    expect(text).not.toContain('hidden attribute text');
    expect(text).not.toContain('Get started today');
    expect(text).not.toContain('Advertisement');
  });

  it('keeps one copy of a paragraph or heading rendered twice (mobile and desktop) or quoted by a later reply', () => {
    const copy = `<h2>Stoneware mug, hand thrown</h2><p>A heavy mug that keeps coffee warm for a long time, glazed by hand.</p>`;
    const { text } = extract(
      page(
        `<main><div class="mobile">${copy}</div><div class="desktop">${copy}</div>${prose('mug', 2)}<blockquote><p>A heavy mug that keeps coffee warm for a long time, glazed by hand.</p><p>A quoted line that appears only here, in the reply.</p></blockquote></main>`,
      ),
    );
    expect(text.split('Stoneware mug, hand thrown').length - 1).toBe(1);
    expect(text.split('glazed by hand').length - 1).toBe(1);
    expect(text).toContain('appears only here');
    expect(text).toContain('mug paragraph 2');
  });

  it('treats a div holding only text as a paragraph when dropping repeats, and quotes of part of a post', () => {
    const post = (author: string, body: string): string =>
      `<article class="message"><h4>${author}</h4><div class="bbWrapper">${body}</div></article>`;
    const first = 'The left port is for the fan hub, you can see it in the wiring diagram of the manual.';
    const { text } = extract(
      page(
        `<div class="thread">${post('Ann', first)}${post('Bob', `<blockquote><div>${first}</div></blockquote>Thanks, that explains the second connector as well.`)}${post('Cy', 'Same question here, and the answer helped me too, thanks.')}</div>`,
      ),
    );
    expect(text.split('wiring diagram').length - 1).toBe(1);
    expect(text).toContain('explains the second connector');
    // a quote of part of an earlier post goes too
    const partial = extract(
      page(
        `<div class="thread">${post('Ann', `${first} Also check the firmware version before you start.`)}${post('Bob', `<blockquote>${first}</blockquote>Thanks, that explains the second connector as well.`)}${post('Cy', 'Same question here, and the answer helped me too, thanks.')}</div>`,
      ),
    );
    expect(partial.text.split('wiring diagram').length - 1).toBe(1);
    expect(partial.text).toContain('check the firmware version');
  });

  it('keeps one copy of a product block rendered twice, but keeps repeated list items and code samples', () => {
    const block = `<div class="summary"><h1>Tumbler</h1><span>Wishlist</span><div>With slider lid</div><div>$35.00</div><div>Free customization with purchase, engraved in our own workshop.</div></div>`;
    const tier = (name: string): string =>
      `<div class="tier"><h3>${name}</h3><ul><li>Unlimited projects and unlimited storage for every member of the team</li><li>Priority support</li></ul></div>`;
    const sample = `<div class="example"><p>Response</p><pre><code>{ "id": "ch_1", "object": "charge", "amount": 1099 }</code></pre></div>`;
    const { text } = extract(
      page(
        `<main><div class="mobile">${block}</div><div class="desktop">${block}</div>${prose('tumbler', 2)}${tier('Basic')}${tier('Pro')}${sample}${sample}</main>`,
      ),
    );
    expect(text.split('engraved in our own workshop').length - 1).toBe(1);
    expect(text.split('Unlimited projects').length - 1).toBe(2);
    expect(text.split('"object": "charge"').length - 1).toBe(2);
    expect(text).toContain('tumbler paragraph 2');
  });

  it('drops "people who viewed this item also viewed" and "frequently bought together" sections', () => {
    const cards = (n: number): string =>
      Array.from(
        { length: n },
        (_, i) => `<li><a href="/p/${i}">Other tumbler ${i}</a><span>$${i}.00</span></li>`,
      ).join('');
    const { text } = extract(
      page(
        `<main><h1>Tumbler</h1>${prose('tumbler', 4)}<section><h2>People who viewed this item also viewed</h2><ul>${cards(3)}</ul></section><h2>Frequently bought together</h2><ul>${cards(2)}</ul></main>`,
      ),
    );
    expect(text).toContain('tumbler paragraph 4');
    expect(text).not.toContain('also viewed');
    expect(text).not.toContain('Other tumbler 1');
  });

  it('shows segments of React streaming SSR (<div hidden id="S:1">), hides other hidden elements', () => {
    const { text } = extract(
      page(
        `<main><template id="B:0"></template><p>Loading...</p></main><div hidden id="S:0"><article>${prose('streamed', 3)}</article></div><div hidden id="S-menu">${prose('secret', 2)}</div>`,
      ),
    );
    expect(text).toContain('streamed paragraph 3');
    expect(text).not.toContain('secret paragraph');
  });

  it('keeps collapsed accordion and tab panels (aria-hidden or display:none until opened), drops other hidden text', () => {
    const { text } = extract(
      page(
        `<main>${prose('faq', 3)}<div class="accordion"><button>How long does shipping take?</button><div role="region" aria-hidden="true"><p>Most orders ship within two days of ordering, from our own warehouse.</p></div><button>Can I return it?</button><div class="faq-answer" aria-hidden="true"><p>Returns are free within thirty days, in the original packaging.</p></div></div><div role="tabpanel" style="display: none"><p>Specifications: stainless steel, twenty ounces, dishwasher safe.</p></div><div role="tabpanel" hidden><p>Care: hand wash the lid, the cup itself is dishwasher safe.</p></div><div class="a-expander-content" style="display:none"><p>Editorial review: a clear and practical guide to the subject.</p></div><div class="drawer-panel" hidden><p>Off-canvas drawer text that nobody sees until they open the menu.</p></div><div aria-hidden="true"><p>Decorative duplicate of the hero text, not read aloud by anyone.</p></div></main>`,
      ),
    );
    expect(text).toContain('Most orders ship within two days');
    expect(text).toContain('Returns are free within thirty days');
    expect(text).toContain('Specifications: stainless steel');
    expect(text).toContain('Care: hand wash the lid');
    expect(text).toContain('Editorial review: a clear');
    expect(text).not.toContain('Off-canvas drawer');
    expect(text).not.toContain('Decorative duplicate');
  });

  it('drops sections under furniture headings recognised by a phrase ("Other posts you may enjoy", "Written by")', () => {
    const { text } = extract(
      page(
        `<article>${prose('bread', 6)}<h2>Other Posts You May Enjoy</h2><p>Sourdough starter basics, step by step.</p><h3>Written by Jo Baker</h3><p>Jo bakes bread every single morning, since 2009.</p></article>`,
      ),
    );
    expect(text).toContain('bread paragraph 6');
    expect(text).not.toContain('Sourdough starter basics');
    expect(text).not.toContain('Jo bakes bread');
  });

  it('drops screen-reader-only text (sr-only, visually-hidden)', () => {
    const { text } = extract(
      page(
        `<main><h1>Clay pots</h1><p><span class="visually-hidden">Regular price</span> $12</p><span class="sr-only">Opens in a new window</span>${prose('pots', 3)}</main>`,
      ),
    );
    expect(text).toContain('pots paragraph 2');
    expect(text).toContain('$12');
    expect(text).not.toContain('Regular price');
    expect(text).not.toContain('new window');
  });

  it('ignores WordPress taxonomy classes (category-reviews is not a review section)', () => {
    const { text } = extract(
      page(
        `<article class="post category-reviews tag-share hentry"><div class="entry-content">${prose('gear', 4)}</div></article>`,
      ),
    );
    expect(text).toContain('gear paragraph 4');
  });
});
