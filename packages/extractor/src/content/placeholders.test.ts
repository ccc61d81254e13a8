// Unfilled template components published with a page: "Heading Line" cards, "Lorem ipsum" teasers and lists that a
// landing-page builder or a shop theme leaves in the HTML beside the real text.
import { describe, it } from 'vitest';

import {
  articleHead,
  expectOnly,
  markdownOf,
  newsPage,
  shareIcons,
  site,
  storyEndingWith,
} from './__fixtures__/news-site.js';

const LOREM =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.';

const longStory = storyEndingWith('');

describe('template placeholders', () => {
  it('drops unfilled cards of a landing page (heading, lorem ipsum teaser, banner) around the report', () => {
    const cards = `<div class="promo-row"><div class="card hero-card"><span class="eyebrow">Featured Index TV</span><h3>Heading Line</h3><p>${LOREM}</p><img src="/dummy_750x300.png" alt="Hero Card Banner Image"><a class="link" href="#">Learn more</a></div></div>`;
    const lists = `<section class="resources"><h3>Lorem Ipsum</h3>${[1, 2, 3]
      .map(
        (n) =>
          `<div class="col"><h5>Head Line ${n}</h5><ul><li><a href="#">Lorem ipsum 1</a></li><li><a href="#">Lorem ipsum 2</a></li><li><a href="#">Lorem ipsum 3</a></li></ul></div>`,
      )
      .join('')}</section>`;
    const page = newsPage(
      `<div class="landing">${cards}${longStory}${lists}<div class="closing"><p><strong>Discover unique insights.</strong></p><p>${LOREM}</p></div></div>`,
      { head: articleHead },
    );
    const { markdown } = markdownOf(page);
    expectOnly(
      markdown,
      ['Work is expected to start in May', 'Paragraph 3 of the report'],
      ['Lorem ipsum', 'Heading Line', 'Head Line 2', 'Hero Card Banner Image', 'Lorem Ipsum'],
    );
  });

  it('drops a shop theme\'s filler sections ("LOREM ISPUM DOLOR ET") and keeps the product text', () => {
    const product = `<div class="product-page"><h1>Slim leather wallet</h1><p class="price">$49.00</p><div class="desc"><p>Hand-stitched from full-grain leather, the slim wallet holds six cards and folded notes without a bulge in your pocket. It ages to a deep brown and comes with a two-year guarantee.</p><p>Each wallet is cut, stitched and edge-finished by hand in our workshop, and ships in a recycled gift box.</p><ul class="specs"><li>Full-grain vegetable-tanned leather from a tannery in Tuscany</li><li>Holds 6 cards and folded notes; 9.5 x 7 cm, 6 mm thin when empty</li><li>Waxed linen thread, saddle-stitched by hand</li><li>Two-year guarantee; free repairs for the life of the wallet</li></ul></div>
<div class="feature-block"><h4>THE 21st CENTURY WALLET</h4><p>${LOREM}</p></div><div class="feature-block"><img src="/f.jpg" alt=""><p>LOREM ISPUM DOLOR ET</p></div><div class="feature-block"><h4>THIS CAN BE ANOTHER SUBJECT LINE</h4><p>LOREM ISPUM DOLOR ET AL YADA YADA</p></div></div>`;
    const page = `<!doctype html><html><head><title>Slim leather wallet</title></head><body>${site.cookie}${site.brand}<main>${product}</main>${site.bottom}</body></html>`;
    const { markdown } = markdownOf(page);
    expectOnly(
      markdown,
      ['Hand-stitched from full-grain leather', 'ships in a recycled gift box'],
      ['Lorem ipsum', 'LOREM ISPUM', 'THE 21st CENTURY WALLET', 'ANOTHER SUBJECT LINE'],
    );
  });

  it('keeps an article about lorem ipsum: sentences about the filler are not filler', () => {
    const article = `<article class="post"><h1>Where lorem ipsum comes from</h1><div class="entry-content"><p>Lorem ipsum is the placeholder text that designers have used since the 1960s, when Letraset sheets made it popular. It comes from a passage of Cicero's De finibus, scrambled so that it reads like Latin without meaning anything.</p><p>The passage begins with a word cut in half: dolorem became "lorem", which is why the text starts mid-word. Typesetters liked that it had a natural spread of letters and word lengths.</p><p>Designers today still paste it into mock-ups, but many teams now prefer real copy early, because filler hides problems with long headlines and short buttons.</p></div></article>`;
    const { markdown } = markdownOf(newsPage(article, { head: articleHead }));
    expectOnly(markdown, ['Lorem ipsum is the placeholder text', 'dolorem became "lorem"', 'prefer real copy early']);
  });

  it('drops the "Loading …" lines that lazily loaded blocks leave in the served HTML, and keeps the story', () => {
    const lazy = (what: string) =>
      `<div class="lazy-block" data-component="${what}"><p class="placeholder">Loading ${what}...</p></div>`;
    const body = storyEndingWith(
      `${lazy('paragraph')}${lazy('image')}<p>The committee will publish the final drawings in April, after the consultation closes.</p>${lazy('hub_pages')}<div class="prices"><span>Loading prices for your region…</span></div>`,
    );
    const { markdown } = markdownOf(newsPage(`${shareIcons}${body}`, { head: articleHead }));
    expectOnly(
      markdown,
      ['Work is expected to start in May', 'Paragraph 3 of the report', 'publish the final drawings in April'],
      ['Loading paragraph', 'Loading image', 'Loading hub_pages', 'Loading prices'],
    );
  });

  it('keeps a sentence that starts with "Loading"', () => {
    const body = storyEndingWith('<p>Loading the ferry takes twenty minutes at low tide...</p>');
    const { markdown } = markdownOf(newsPage(body, { head: articleHead }));
    expectOnly(markdown, ['Loading the ferry takes twenty minutes at low tide']);
  });
});
