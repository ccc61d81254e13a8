// Widget state that a shop or app leaves in its HTML as JSON, in an element its own CSS hides, for a script to read.
import { describe, it } from 'vitest';

import { expectOnly, markdownOf } from './__fixtures__/news-site.js';

const products = Array.from({ length: 12 }, (_, i) => ({
  asin: `B0CX${1000 + i}`,
  title: `Wireless over-ear headphones model ${i} with active noise cancelling`,
  price: { amount: 79.99 + i, currency: 'USD' },
  rating: 4.4,
  reviews: 1_200 + i,
}));
const state = JSON.stringify({ widgetId: 'GridWidget', pageType: 'BROWSE', nodeId: '172541', products });
const escaped = state.replace(/"/g, '&quot;');

const categoryPage = (grid: string): string => `<!doctype html><html><head><title>Headphones | Shop</title></head><body>
<div id="nav-belt"><a href="/">Shop</a><form action="/s"><input name="k" placeholder="Search Shop"><button>Go</button></form><a href="/cart">Cart</a></div>
<div id="cookie-bar" class="consent-banner">We use cookies to improve your experience. <button>Accept</button> <button>Decline</button></div>
<div class="browse-page"><div class="refinements"><h4>Brands</h4><ul><li><a href="/b?brand=a">Acme</a></li><li><a href="/b?brand=b">Sonic</a></li><li><a href="/b?brand=c">Beat</a></li></ul>
<h4>Condition</h4><ul><li><a href="/b?c=new">New</a></li><li><a href="/b?c=used">Used</a></li></ul></div>
<div class="browse-main"><h1>Headphones &amp; Earbuds</h1>
<p>Find over-ear, on-ear and in-ear headphones from the brands you know, with noise cancelling, long battery life and
fast charging. Compare models by sound, comfort and price, and read what other customers say before you buy.</p>
${grid}</div></div>
<div id="navFooter"><a href="/help">Help</a> <a href="/returns">Returns</a> <a href="/conditions">Conditions of Use</a> © 2026 Shop</div>
</body></html>`;

describe('state data in the HTML', () => {
  it('drops a JSON object that a hidden-by-CSS element holds for a script', () => {
    const grid = `<div class="dcl-grid" id="asin-grid"><div class="grid-state aok-hidden">${escaped}</div><div class="grid-cards"></div></div>`;
    const { markdown } = markdownOf(categoryPage(grid));
    expectOnly(
      markdown,
      ['Headphones & Earbuds', 'noise cancelling, long battery life'],
      ['widgetId', '"asin"', 'B0CX1000', '{'],
    );
  });

  it('keeps JSON shown as code, and short or invalid JSON-looking text', () => {
    const docs = `<!doctype html><html><head><title>Response | API docs</title></head><body>
<nav class="sidebar"><a href="/docs">Overview</a> <a href="/docs/auth">Authentication</a> <a href="/docs/search">Search</a></nav>
<main><h1>Search response</h1><p>The search endpoint answers with the page type, the node and the products it found, in
the order the ranking gave them. Each product carries its identifier, title, price and rating.</p>
<pre><code>${escaped}</code></pre>
<p>A missing price means the product is not sold right now. The template <span>{"name"}</span> stands for a field.</p>
<p>{"broken": "this is not JSON because it never closes, and it is long enough to be looked at by the rule, which
parses it before it drops anything, so that text that only starts like JSON stays on the page as the reader saw it"</p>
</main></body></html>`;
    const { markdown } = markdownOf(docs);
    expectOnly(markdown, ['Search response', '"widgetId":"GridWidget"', 'B0CX1011', '{"name"}', '{"broken": "this is']);
  });
});
