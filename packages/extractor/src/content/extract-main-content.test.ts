import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import type { Document, Element } from 'domhandler';
import { findAll, getElementsByTagName, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';

import { extractMainContent } from './index.js';

const prose = (topic: string, n = 3): string =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>${topic} paragraph ${i + 1}: this sentence carries real information about ${topic}, with commas, clauses and a full stop. It goes on a little, so that it reads like prose rather than a label.</p>`,
  ).join('\n');

const chrome = {
  header: `<header class="site-header"><a href="/">Logo</a><nav><ul><li><a href="/a">Home</a></li><li><a href="/b">Products</a></li><li><a href="/c">About us</a></li><li><a href="/d">Contact</a></li></ul></nav></header>`,
  cookie: `<div id="cookie-banner" class="cookie-consent"><p>We use cookies to improve your experience. By continuing you accept our cookie policy.</p><button>Accept all cookies</button></div>`,
  footer: `<footer><p>© 2026 Example Corp. All rights reserved.</p><ul><li><a href="/privacy">Privacy policy</a></li><li><a href="/terms">Terms of use</a></li></ul></footer>`,
  sidebar: `<aside class="sidebar"><h3>Popular posts</h3><ul><li><a href="/p1">Ten tips for gardens</a></li><li><a href="/p2">Why soil matters</a></li><li><a href="/p3">Winter pruning</a></li></ul></aside>`,
};

function page(main: string, { head = '', before = '', after = '' } = {}): string {
  return `<!doctype html><html><head><title>T</title>${head}<script>var tracking = "script text never shows";</script><style>.x{color:red}</style></head><body>${chrome.cookie}${chrome.header}${before}${main}${after}${chrome.sidebar}${chrome.footer}<script>window.x=1</script></body></html>`;
}

function extract(html: string): { doc: Document; text: string } {
  const doc = extractMainContent(parseDocument(html), { url: 'https://example.test/page' });
  return { doc, text: textContent(doc).replace(/\s+/g, ' ').trim() };
}

function count(doc: Document, tag: string): number {
  return getElementsByTagName(tag, doc.children, true).length;
}

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

describe('extractMainContent: forums', () => {
  const posts = Array.from(
    { length: 5 },
    (_, i) =>
      `<div class="post" id="p${i}"><div class="author"><a href="/u/${i}">user${i}</a> <span>Mar ${i + 1}, 2026</span></div><div class="message">${prose(`reply${i}`, i === 0 ? 3 : 1)}</div></div>`,
  ).join('');
  const thread = page(
    `<div class="breadcrumbs"><a href="/">Forum</a> › <a href="/f/1">Gardening</a></div><div class="thread"><h1>Best soil for tomatoes?</h1>${posts}</div><div class="pagination"><a href="?p=1">1</a><a href="?p=2">2</a><a href="?p=3">Next</a></div>`,
  );

  it('keeps every post of the thread, with authors', () => {
    const { text } = extract(thread);
    for (let i = 0; i < 5; i++) expect(text).toContain(`reply${i} paragraph 1`);
    expect(text).toContain('user3');
    expect(text).toContain('Best soil for tomatoes?');
  });

  it('drops breadcrumbs, pagination and site chrome', () => {
    const { text } = extract(thread);
    expect(text).not.toContain('Gardening');
    expect(text).not.toContain('Next');
    expect(text).not.toContain('About us');
  });

  it('drops per-post chrome: poster rank and statistics, reactions, signatures, "Click to expand..."', () => {
    const post = (i: number): string =>
      `<article class="message message--post"><section class="message-user"><h4><a href="/u/${i}">poster${i}</a></h4><h5 class="userTitle message-userTitle">Well-known member</h5><div class="message-userExtras"><dl><dt>Joined</dt><dd>Jan 1, 2020</dd></dl><dl><dt>Messages</dt><dd>1,234</dd></dl></div><div class="author_statistics">Threads: 23</div></section><div class="message-content"><blockquote>quoted words<div class="bbCodeBlock-expandLink"><a href="#">Click to expand...</a></div></blockquote>${prose(`post${i}`, 2)}<div class="message-signature">My rig: a very fast computer, with many parts.</div></div><footer><div class="reactionsBar">Reactions: someone and 3 others</div></footer></article>`;
    const { text } = extract(page(`<div class="block-body">${[0, 1, 2, 3].map(post).join('')}</div>`));
    for (let i = 0; i < 4; i++) {
      expect(text).toContain(`post${i} paragraph 2`);
      expect(text).toContain(`poster${i}`);
    }
    for (const gone of [
      'Well-known member',
      'Joined',
      'Messages',
      'Threads: 23',
      'Reactions:',
      'My rig',
      'Click to expand',
    ]) {
      expect(text).not.toContain(gone);
    }
  });

  it('keeps a discussion made of comments when the page has little else', () => {
    const comments = Array.from({ length: 4 }, (_, i) => `<div class="comment">${prose(`comment${i}`, 1)}</div>`).join(
      '',
    );
    const { text } = extract(
      page(
        `<div class="link-post"><a href="https://ext.test/x">An interesting link</a></div><div class="comments">${comments}</div>`,
      ),
    );
    for (let i = 0; i < 4; i++) expect(text).toContain(`comment${i} paragraph 1`);
  });

  it('reads content served in <noscript> (forum crawler views)', () => {
    const { text } = extract(
      page(`<div id="app"></div><noscript><div class="topic">${prose('crawler', 3)}</div></noscript>`),
    );
    expect(text).toContain('crawler paragraph 2');
  });
});

describe('extractMainContent: products and listings', () => {
  it('keeps a product title, price, description and specs; drops cart buttons, reviews and upsells', () => {
    // reviews go when the page has substantial prose of its own (here a long description)
    const { text } = extract(
      page(`<div class="product-page"><div class="product-main"><h1>Trail Backpack 25L</h1><p class="price">$89.00</p>
        <button class="add-to-cart">Add to cart</button>
        ${prose('backpack', 15)}
        <table class="specs"><tr><th>Weight</th><td>1.1 kg</td></tr><tr><th>Volume</th><td>25 litres</td></tr></table></div>
        <div class="product-reviews"><h2>Customer reviews</h2>${prose('review', 2)}</div>
        <div class="recently-viewed"><h2>Recently viewed</h2><a href="/p/9">Camp Stove</a></div></div>`),
    );
    for (const kept of ['Trail Backpack 25L', '$89.00', 'backpack paragraph 3', '1.1 kg', '25 litres'])
      expect(text).toContain(kept);
    for (const dropped of ['Add to cart', 'Customer reviews', 'review paragraph', 'Camp Stove'])
      expect(text).not.toContain(dropped);
  });

  it('drops customer reviews and the legal disclaimer under a short product description', () => {
    const { text } = extract(
      page(`<div class="product-page"><div class="product-main"><h1>Earbuds Pro</h1><p class="price">$199.00</p>
        ${prose('earbuds', 4)}</div>
        <div class="global-reviews-content"><h2>Top reviews</h2>${prose('review', 8)}</div>
        <div class="common-bottom-disclaimer"><ol>${Array.from({ length: 6 }, (_, i) => `<li>Disclaimer ${i}: an account login may be required to use certain features, and results vary by region.</li>`).join('')}</ol></div></div>`),
    );
    expect(text).toContain('earbuds paragraph 4');
    expect(text).not.toContain('review paragraph');
    expect(text).not.toContain('Disclaimer 2');
  });

  it('keeps every item of a listing of links, drops the filter sidebar', () => {
    const items = Array.from(
      { length: 12 },
      (_, i) =>
        `<li class="card"><a href="/item/${i}">Product number ${i} with a long name</a><span class="price">$${10 + i}.99</span></li>`,
    ).join('');
    const { text } = extract(
      page(
        `<div class="category"><h1>Desk accessories</h1><p>Everything for a tidy desk.</p><ul class="grid">${items}</ul></div>`,
        {
          before: `<div class="filters sidebar"><h3>Filter by brand</h3><a href="?b=1">Acme</a><a href="?b=2">Globex</a></div>`,
        },
      ),
    );
    for (let i = 0; i < 12; i++) expect(text).toContain(`Product number ${i} with a long name`);
    expect(text).toContain('$21.99');
    expect(text).toContain('Desk accessories');
    expect(text).not.toContain('Filter by brand');
  });

  it('drops a trailing grid of teaser cards after an article, keeps FAQ questions and listings of cards', () => {
    const card = (i: number, href: string): string =>
      `<div class="card"><h3><a href="${href}">Another story number ${i} worth reading</a></h3><span>Dec 19, 2025</span></div>`;
    const faq = [1, 2, 3]
      .map(
        (i) =>
          `<div><h3><a href="#">Question ${i} about the topic?</a></h3><p>Answer ${i}, in a full sentence.</p></div>`,
      )
      .join('');
    const { text } = extract(
      page(
        `<article>${prose('story', 12)}<div class="faq">${faq}</div><div class="grid">${[1, 2, 3, 4].map((i) => card(i, `/s/${i}`)).join('')}</div></article>`,
      ),
    );
    expect(text).toContain('story paragraph 12');
    expect(text).toContain('Answer 2, in a full sentence.');
    expect(text).not.toContain('Another story number 3');
    const listing = extract(
      page(
        `<main><h1>Stories</h1><p>All our stories.</p><div class="grid">${Array.from({ length: 12 }, (_, i) => card(i, `/s/${i}`)).join('')}</div></main>`,
      ),
    );
    expect(listing.text).toContain('Another story number 7');
  });

  it('drops a short link list inside an article, keeps an index made of many short link lists', () => {
    const links = (letter: string, n: number): string =>
      `<ul>${Array.from({ length: n }, (_, i) => `<li><a href="/w/${letter}${i}">${letter}-lang ${i}</a></li>`).join('')}</ul>`;
    const article = extract(page(`<article>${prose('essay', 6)}<div class="tags">${links('tag', 4)}</div></article>`));
    expect(article.text).toContain('essay paragraph 6');
    expect(article.text).not.toContain('tag-lang 2');
    const index = extract(
      page(
        `<main><h1>List of languages</h1><p>This is an index to notable languages, in current or historical use.</p>${['A', 'B', 'C', 'D', 'E'].map((l) => `<h2>${l}</h2>${links(l, 8)}`).join('')}</main>`,
      ),
    );
    expect(index.text).toContain('C-lang 5');
    expect(index.text).toContain('E-lang 7');
  });

  it('keeps a link-list page (an index of entries) rather than only its intro', () => {
    const entries = Array.from({ length: 40 }, (_, i) => `<li><a href="/wiki/L${i}">Language ${i}</a></li>`).join('');
    const { text } = extract(
      page(
        `<div class="content"><p>This is an index of notable languages, in current or historical use.</p><ul>${entries}</ul></div>`,
      ),
    );
    expect(text).toContain('Language 0');
    expect(text).toContain('Language 39');
  });
});

describe('extractMainContent: never empty, robust input', () => {
  it('returns the page text when nothing looks like content', () => {
    const { text } = extract('<html><body><div>Just one short line.</div></body></html>');
    expect(text).toBe('Just one short line.');
  });

  it('falls back to the whole page rather than nothing when all text is chrome', () => {
    const { text } = extract('<html><body><nav><a href="/a">Only</a> <a href="/b">links</a></nav></body></html>');
    expect(text).toContain('Only');
  });

  it('handles fragments without html/body', () => {
    const { text } = extract(`<div>${prose('fragment', 2)}</div><div>${prose('second', 2)}</div>`);
    expect(text).toContain('fragment paragraph 1');
    expect(text).toContain('second paragraph 2');
  });

  it('handles an empty document', () => {
    const { doc, text } = extract('');
    expect(text).toBe('');
    expect(doc.children.length).toBe(1);
  });

  it('recovers a page swallowed by an unclosed <![CDATA[ (HTML ends it at the first ">")', () => {
    const html = `<html><body><![CDATA[ theme marker ><div class="thread">${prose('cdata', 3)}</div></body></html>`;
    const { text } = extract(html);
    expect(text).toContain('cdata paragraph 1');
    expect(text).toContain('cdata paragraph 3');
    expect(text).not.toContain('theme marker');
  });

  it('reads content that a stray </body></html> left outside the body, as browsers do', () => {
    const { text } = extract(
      `<html><body><div class="top"><a href="/">Home</a></div></body></html><div class="post"><h1>After the end</h1>${prose('stray', 3)}</div>`,
    );
    expect(text).toContain('stray paragraph 3');
    const { text: inner } = extract(
      `<html><body><p>Intro.</p></body><div class="post">${prose('tail', 2)}</div></html>`,
    );
    expect(inner).toContain('tail paragraph 2');
  });

  it('survives very deep nesting without recursion', () => {
    const depth = 20000;
    const html = `<html><body>${'<div>'.repeat(depth)}${prose('deep', 2)}${'</div>'.repeat(depth)}</body></html>`;
    const { text } = extract(html);
    expect(text).toContain('deep paragraph 2');
  });
});

describe('extractMainContent: fixture site pages', () => {
  const fixture = (p: string): string =>
    readFileSync(fileURLToPath(new URL(`../../../../fixtures/site/${p}`, import.meta.url)), 'utf8');

  const posts = (root: Document): number =>
    findAll((el) => (el.attribs['class'] ?? '').split(' ').includes('post'), root.children).length;

  it('keeps every post of the fixture forum thread and drops its navigation and reply form', () => {
    const html = fixture('forum/thread.html');
    const all = posts(parseDocument(html));
    const { doc } = extract(html);
    expect(all).toBeGreaterThan(1);
    expect(posts(doc)).toBe(all);
    expect(count(doc, 'nav')).toBe(0);
    expect(count(doc, 'footer')).toBe(0);
  });
});
