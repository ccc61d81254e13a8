// The container walk stops above a collection's grid of items when a longer block of prose (the category's
// description) follows it (`item-grids.ts`, `select.ts`), on pages built like real category pages.
import { describe, expect, it } from 'vitest';

import { explainPage } from '../explain/index.js';
import { expectOnly, markdownOf, URL } from './__fixtures__/news-site.js';

/** `n` product cards: a picture in a link, a linked name, a price (and a blurb), as category grids render them. */
const grid = (n: number, blurb = ''): string =>
  `<div class="product-grid">${Array.from(
    { length: n },
    (_, i) =>
      `<div class="grid-item"><a href="/p/socks-${i}"><img src="/img/socks-${i}.jpg" alt=""></a><a class="name" href="/p/socks-${i}">Merino crew socks, pattern ${i}, in navy and grey</a><span class="price">$${14 + i}</span>${blurb}</div>`,
  ).join('')}</div>`;

/** The category's description, set below the grid: more plain text than the grid, whose names are links. */
const description = `<div class="seo-copy"><h2>About our dress socks</h2>${Array.from(
  { length: 8 },
  (_, i) =>
    `<p>Dress socks note ${i}: a fine merino knit keeps the foot dry through a long evening, the reinforced heel and toe outlast a season of wear, and the cuff stays up without pinching the calf.</p>`,
).join('')}</div>`;

const intro = `<div class="collection-head"><h1>Dress socks</h1><p>Our collection of dress socks finishes a suit or a tuxedo, in solid colours and patterns.</p></div>`;

const categoryPage = (main: string, head = ''): string =>
  `<!doctype html><html><head><title>Dress socks</title>${head}</head><body><div class="site-head"><a href="/">Formalwear</a></div><main><div class="collection">${main}</div></main><div class="site-foot"><p>Copyright 2026 Formalwear Ltd. All rights reserved.</p></div></body></html>`;

describe('a grid of items above a longer description', () => {
  it("keeps the category's intro, its grid and its description, not the description alone", () => {
    const { markdown } = markdownOf(categoryPage(`${intro}${grid(16)}${description}`));
    expectOnly(markdown, [
      'Our collection of dress socks',
      'Merino crew socks, pattern 0',
      'Merino crew socks, pattern 15',
      '$29',
      'Dress socks note 7',
    ]);
  });

  it('names its rule in explain for the grid', () => {
    const page = categoryPage(`${intro}${grid(16)}${description}`);
    const block = explainPage(page, { url: URL }).blocks.find((b) => b.text.includes('pattern 3'));
    expect(block).toMatchObject({ verdict: 'kept', rule: 'item-grid' });
  });

  it('leaves a grid after the prose alone (a sidebar of other items), and a grid too small to be the page', () => {
    const after = markdownOf(categoryPage(`${description}${grid(16)}`)).markdown;
    expectOnly(after, ['Dress socks note 0', 'Dress socks note 7'], ['Merino crew socks, pattern 0']);
    const small = markdownOf(categoryPage(`${intro}${grid(3)}${description}`)).markdown;
    expectOnly(small, ['Dress socks note 0'], ['Merino crew socks, pattern 0']);
  });

  it('leaves declared articles to the teaser rules', () => {
    const head = `<meta property="og:type" content="article">`;
    const { markdown } = markdownOf(categoryPage(`${intro}${grid(16)}${description}`, head));
    expectOnly(markdown, ['Dress socks note 0'], ['Merino crew socks, pattern 0']);
  });
});

describe("a listing's intro line above its grid", () => {
  const blurb = '<p class="blurb">Knitted in Portugal from fine merino wool.</p>';
  const head = `<div class="collection-head"><h1>Dress socks</h1><p>Our collection of dress socks finishes a suit or a tuxedo, in solid colours and patterns, from the wedding to the office party.</p></div>`;

  it("comes with a container that is mostly a grid of items, though shorter than a story's intro", () => {
    const { markdown } = markdownOf(categoryPage(`${head}<div class="results">${grid(16, blurb)}</div>`));
    expectOnly(markdown, ['Our collection of dress socks', 'Merino crew socks, pattern 0', 'Knitted in Portugal']);
    const block = explainPage(categoryPage(`${head}<div class="results">${grid(16, blurb)}</div>`), {
      url: URL,
    }).blocks.find((b) => b.text.includes('Our collection of dress socks'));
    expect(block).toMatchObject({ verdict: 'kept', rule: 'lede' });
  });

  it("stays out above a story: a one-line standfirst is not the story's intro", () => {
    const story = Array.from(
      { length: 6 },
      (_, i) =>
        `<p>Paragraph ${i} of the story: the mill in the valley has spun merino for a century, and its looms still run two shifts a day through the winter.</p>`,
    ).join('');
    const { markdown } = markdownOf(categoryPage(`${head}<div class="results">${story}</div>`));
    expectOnly(markdown, ['Paragraph 0 of the story', 'Paragraph 5 of the story'], ['Our collection of dress socks']);
  });
});
