// Rows of priced product cards beside a page's content (`product-cards.ts`), on shop pages built like real ones.
import { describe, expect, it } from 'vitest';

import { explainPage } from '../explain/index.js';
import { articleHead, expectOnly, markdownOf, URL } from './__fixtures__/news-site.js';

const product = `<div class="pdp-title"><h1>Vinyl executive chair with brass nail trim</h1></div><div class="pdp-price">$273.99</div>
<p>A high-back office chair upholstered in soft vinyl, with hand-applied antique brass nail trim along the arms and the back. The seat swivels and its height adjusts between 20 and 23 inches.</p>
<p>The frame is manufactured wood on a five-star metal base with dual-wheel casters. Assembly takes about thirty minutes with the tools in the box, and the chair holds up to 250 pounds.</p>
<p>Wipe clean with a damp cloth; do not use solvents on the vinyl or the trim. Covered by a one-year warranty against defects in materials and workmanship.</p>`;

/** `n` cards of other products: a picture in a link, a linked name, a rating, a price, as shops render carousels. */
const cards = (
  n: number,
  {
    price = true,
    name = (i: number) => `Writing desk model ${i} with two drawers`,
    blurb = '<span class="tile-rating">4.6 out of 5 stars, 1,664 reviews</span>',
  } = {},
) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<div class="product-tile"><a href="/pdp/desk-${i}.html"><img src="/img/desk-${i}.jpg" alt=""></a><a class="tile-name" href="/pdp/desk-${i}.html">${name(i)}</a>${price ? `<span class="tile-price">$${120 + i}.99</span>` : ''}${blurb}</div>`,
  ).join('');

const shopPage = (main: string, head = ''): string =>
  `<!doctype html><html><head><title>Shop</title>${head}</head><body><div class="site-head"><a href="/">Home furnishings</a></div><div id="main">${main}</div><div class="site-foot"><p>Copyright 2026 Home furnishings Ltd. All rights reserved.</p></div></body></html>`;

describe('rows of priced product cards', () => {
  it('drop a carousel of other products on a product page, under a heading no table knows', () => {
    const page = shopPage(
      `<div class="pdp">${product}<div class="recs"><h2>Get everything you need</h2><div class="carousel">${cards(4)}</div></div></div>`,
    );
    const { markdown } = markdownOf(page);
    expectOnly(
      markdown,
      ['Vinyl executive chair', '$273.99', 'hand-applied antique brass nail trim', 'one-year warranty'],
      ['Writing desk model 0', 'Writing desk model 3', '$120.99'],
    );
  });

  it('name their rule in explain, for a pair of cards too ("Frequently bought together")', () => {
    const page = shopPage(`<div class="pdp">${product}<div class="bundle">${cards(2)}</div></div>`);
    const block = explainPage(page, { url: URL }).blocks.find((b) => b.text.includes('Writing desk model 1'));
    expect(block).toMatchObject({ verdict: 'dropped', rule: 'product-cards', module: 'product-cards.ts' });
  });

  it("keep a collection's grid beside a long buying guide: more cards than a carousel holds", () => {
    const advice = Array.from(
      { length: 20 },
      (_, i) =>
        `<p>Buying advice number ${i}: measure the room before you choose a desk, leave ${60 + i} centimetres behind the chair, and check that the drawers open fully past the legs.</p>`,
    ).join('');
    const page = `<div class="plp"><h1>Writing desks</h1><div class="grid">${cards(25)}</div><h2>How to choose a desk</h2>${advice}</div>`;
    const { markdown } = markdownOf(shopPage(page));
    expectOnly(markdown, ['Writing desk model 0', 'Writing desk model 24', '$144.99', 'Buying advice number 19']);
  });

  it('keep cards without a price (showrooms, services) and cards too short to name a product (colour swatches)', () => {
    const blurb = '<p>See, feel and try our furniture with the help of our team.</p>';
    const showrooms = `<div class="row">${cards(4, { price: false, name: (i) => `Showroom number ${i}`, blurb })}</div>`;
    const swatch = (i: number): string => ['Black', 'Tan', 'Grey', 'Navy'][i]!;
    const swatches = `<div class="swatches">${cards(4, { name: swatch, blurb: '' })}</div>`;
    const { markdown } = markdownOf(shopPage(`<div class="pdp">${product}${showrooms}${swatches}</div>`));
    expectOnly(markdown, ['Showroom number 0', 'Showroom number 3', 'Black', 'Navy', '$123.99']);
  });

  it('drop a rail whose cards are covered by a link without text, the picture beside it', () => {
    const tile = (i: number): string =>
      `<li class="slide"><div class="tile"><img src="/img/lamp-${i}.jpg" alt=""><h3>Brass desk lamp number ${i}</h3><span>Pre-owned</span><span>$${40 + i}.50</span><a class="tile-cover" aria-label="Brass desk lamp number ${i}" href="/item/lamp-${i}"></a></div></li>`;
    const rail = `<div class="similar"><h2>More to look at</h2><ul class="slides">${[0, 1, 2, 3, 4].map(tile).join('')}</ul></div>`;
    const { markdown } = markdownOf(shopPage(`<div class="pdp">${product}${rail}</div>`));
    expectOnly(
      markdown,
      ['Vinyl executive chair', '$273.99', 'one-year warranty'],
      ['Brass desk lamp number 0', 'Brass desk lamp number 4', '$40.50'],
    );
  });

  it('read a price split over elements ($ in one span, the figure in the next) in a "Buy it with" row', () => {
    const item = (name: string, dollars: number): string =>
      `<a class="bundle-item" href="/pdp/${dollars}.html"><img src="/img/${dollars}.jpg" alt=""><span class="bundle-name">${name}</span><em><span class="sym">$</span><span class="whole">${dollars}</span><span class="cents">.99</span></em></a>`;
    const bundle = `<div class="bundle"><h2>Buy it with</h2><div class="bundle-items">${item('Seat cushion in grey felt', 39)}${item('Floor mat for hard floors', 54)}</div></div>`;
    const { markdown } = markdownOf(shopPage(`<div class="pdp">${product}${bundle}</div>`));
    expectOnly(markdown, ['Vinyl executive chair', 'one-year warranty'], ['Seat cushion in grey felt', 'Floor mat']);
  });

  it('keep cards under a covering link that show no price (a gallery of rooms that use the chair)', () => {
    const room = (i: number): string =>
      `<div class="room"><img src="/img/room-${i}.jpg" alt=""><p>Home office in a loft, number ${i}</p><a aria-label="Room ${i}" href="/rooms/${i}"></a></div>`;
    const rooms = `<div class="rooms">${[0, 1, 2].map(room).join('')}</div>`;
    const { markdown } = markdownOf(shopPage(`<div class="pdp">${product}${rooms}</div>`));
    expectOnly(markdown, ['Home office in a loft, number 0', 'Home office in a loft, number 2']);
  });

  it("drop cards with their own buy button beside the product's price, and keep them under a collection's title", () => {
    const addable = (i: number): string =>
      `<div class="pairing"><img src="/img/mat-${i}.jpg" alt=""><div><a href="/pdp/mat-${i}.html">Floor mat ${i}</a><p>Sale price $${19 + i}.95, ships in two days</p><button type="button">Add to cart</button></div></div>`;
    const row = `<div class="pairings"><p>Goes well with</p><div class="pairing-list">${[0, 1, 2].map(addable).join('')}</div></div>`;
    const onProduct = markdownOf(shopPage(`<div class="pdp">${product}${row}</div>`)).markdown;
    expectOnly(onProduct, ['Vinyl executive chair', '$273.99', 'one-year warranty'], ['Floor mat 0', 'Floor mat 2']);
    const guide = product.replace(/<div class="pdp-price">[^<]*<\/div>/, '').replace('Vinyl executive chair', 'Chairs');
    const onCollection = markdownOf(shopPage(`<div class="plp">${guide}${row}</div>`)).markdown;
    expectOnly(onCollection, ['Floor mat 0', 'Floor mat 2', '$19.95']);
  });

  it('leave a declared article to the teaser rules (a gift guide lists priced picks)', () => {
    const story = `<article><h1>Gift guide: desks for small rooms</h1>${product}<div class="picks">${cards(4)}</div></article>`;
    const { markdown } = markdownOf(shopPage(story, articleHead));
    expectOnly(markdown, ['Writing desk model 0', 'Writing desk model 3']);
  });
});
