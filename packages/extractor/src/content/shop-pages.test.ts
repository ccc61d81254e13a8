// Main content of shop pages built like real ones: a header with search and cart, a category menu, the product
// column, carousels of other products under "Explore related items" / "Featured products" / "Sponsored items", and a
// footer of help links.
import { describe, it } from 'vitest';

import { expectOnly, markdownOf } from './__fixtures__/news-site.js';

const header = `<div class="gh-header"><a class="gh-logo" href="/">Marketplace</a><form class="gh-search" action="/sch"><input name="q" placeholder="Search for anything"><button>Search</button></form><a href="/signin">Sign in</a> <a href="/cart">Cart</a></div>
<div class="hl-cat-nav"><ul><li><a href="/b/motors">Motors</a></li><li><a href="/b/electronics">Electronics</a></li><li><a href="/b/collectibles">Collectibles</a></li><li><a href="/b/home-garden">Home &amp; Garden</a></li><li><a href="/b/fashion">Fashion</a></li><li><a href="/b/toys">Toys</a></li></ul></div>`;
const bottom = `<div class="gh-footer"><ul><li><a href="/help">Help &amp; Contact</a></li><li><a href="/returns">Returns</a></li><li><a href="/about">About us</a></li><li><a href="/policies">Policies</a></li></ul><p>Copyright © 1995-2026 Marketplace Inc. All Rights Reserved. Accessibility, User Agreement, Privacy, Consumer Health Data, Payments Terms of Use, Cookies.</p></div>`;

const product = `<div class="x-item-title"><h1>Vintage brass desk lamp with green glass shade</h1></div><div class="x-price-primary">US $64.99</div>
<div class="x-item-condition">Condition: Used. In good working order, rewired in 2024.</div>
<div class="item-description"><p>A banker's lamp from the 1960s with its original green glass shade. The brass base has a warm patina and two small dents on the back, shown in the last photo.</p>
<p>It was rewired with a new cloth cord and an inline switch, and takes one E27 bulb up to 60 watts. The shade is 26 cm wide; the lamp is 38 cm tall.</p>
<p>The switch on the cord is new, the pull chain of the original was broken and has been removed; the hole is closed with a brass plug. All parts were tested by a licensed electrician, and the lamp has been used daily for a month without a problem.</p>
<p>Packed with double-wall cardboard and bubble wrap. Shipped within two business days of payment, with tracking.</p></div>
<table class="ux-layout-specs"><tr><th>Brand</th><td>Unbranded</td><th>Era</th><td>1960s</td></tr><tr><th>Material</th><td>Brass, glass</td><th>Bulb type</th><td>E27, up to 60 W</td></tr><tr><th>Height</th><td>38 cm</td><th>Shade width</th><td>26 cm</td></tr></table>`;

/** A carousel of `n` product cards (image, linked title, price, shipping), as shops render them. */
const carousel = (label: string, n = 4): string =>
  `<div class="carousel"><ul>${Array.from({ length: n }, (_, i) => `<li class="card"><a href="/itm/${label}-${i}"><img src="/img/${i}.jpg" alt=""></a><a href="/itm/${label}-${i}"><span class="title">${label} card ${i}: brass lamp, green shade, working</span></a><span class="price">$${40 + i}.00</span><span class="ship">Free shipping</span></li>`).join('')}</ul></div>`;

const shopPage = (main: string): string =>
  `<!doctype html><html><head><title>Vintage brass desk lamp | Marketplace</title></head><body>${header}<div id="mainContent">${main}</div>${bottom}</body></html>`;

describe('shop pages: other products after the product', () => {
  it('drops "Explore related items", "Featured products" and "Sponsored items" carousels', () => {
    const sections = [
      `<h2>Explore related items</h2>${carousel('Related')}`,
      `<h3 class="section-title">Featured products</h3>${carousel('Featured')}`,
      `<h2>Sponsored items from this seller</h2>${carousel('Sponsored')}`,
      `<h2>Shop similar lamps</h2>${carousel('Similar')}`,
    ];
    for (const section of sections) {
      const { markdown } = markdownOf(shopPage(`<div class="main-col">${product}${section}</div>`));
      expectOnly(
        markdown,
        ['Vintage brass desk lamp', 'US $64.99', 'original green glass shade', 'Shipped within two business days'],
        ['card 0:', 'card 3:', 'Explore related', 'Featured products', 'Sponsored items', 'Shop similar'],
      );
    }
  });

  it('keeps a collection page whose products are the page, under a "Featured products" heading', () => {
    const collection = `<div class="collection"><h1>Desk lamps</h1><p>Brass, glass and enamel lamps for the study, restored and tested.</p><h2>Featured products</h2>${carousel('Lamp', 12)}</div>`;
    const { markdown } = markdownOf(shopPage(collection));
    expectOnly(markdown, ['Desk lamps', 'Lamp card 0:', 'Lamp card 11:'], ['Help & Contact', 'All Rights Reserved']);
  });

  it('keeps a description section whose heading only starts like a carousel label', () => {
    const details = `<h2>Featured in our 2024 catalogue</h2><p>This lamp was photographed for the spring catalogue before it was sold to a private collector, who kept it in a dry study for twenty years.</p>`;
    const { markdown } = markdownOf(shopPage(`<div class="main-col">${product}${details}</div>`));
    expectOnly(markdown, ['original green glass shade', 'Featured in our 2024 catalogue', 'private collector']);
  });
});

describe('shop pages: screen-reader-only text behind a namespace', () => {
  it('drops namespaced screen-reader-only labels (usa-sr-only, u-hiddenVisually, a CSS module srOnly class)', () => {
    const column = `<div class="main-col"><div class="x-item-title"><h1>Vintage brass desk lamp with green glass shade</h1></div>
<div class="x-price-primary"><span class="usa-sr-only">Current price, including taxes:</span>US $64.99 <span class="u-hiddenVisually">Was:</span><s>US $79.00</s></div>
<div class="x-rating"><span class="styles_srOnly__6uNpq">Rated 4.6 out of 5 stars by buyers</span><span class="stars">★★★★½</span> 31 ratings</div>
${product}<a class="wt-cli-sr-only" href="#reviews">Skip to the customer reviews of this item</a></div>`;
    const { markdown } = markdownOf(shopPage(column));
    expectOnly(
      markdown,
      ['Vintage brass desk lamp', 'US $64.99', '31 ratings', 'original green glass shade'],
      ['Current price, including taxes', 'Was:', 'Rated 4.6 out of 5', 'Skip to the customer reviews'],
    );
  });

  it('keeps a field whose BEM modifier says only its label is hidden (field--label-visually_hidden)', () => {
    const field = (name: string, label: string, body: string): string =>
      `<div class="field field--name-${name} field--label-visually_hidden"><div class="field__label visually-hidden">${label}</div><div class="field__item">${body}</div></div>`;
    const column = `<article class="node node--type-product">${field('title', 'Title', '<h1>Vintage brass desk lamp with green glass shade</h1>')}${field('body', 'Body', product)}</article>`;
    const { markdown } = markdownOf(shopPage(column));
    expectOnly(
      markdown,
      ['Vintage brass desk lamp', 'original green glass shade', 'Shipped within two business days'],
      ['Body', 'Title'],
    );
  });
});

describe('shop pages: the product description inside the product column', () => {
  const description = `<div class="product__description rte"><p>Hand-thrown in our studio from a speckled stoneware clay, this mug holds 350 ml and keeps its warmth longer than porcelain. Each piece is glazed by hand, so the colour and the speckles vary a little from one mug to the next.</p>
<p>The handle is pulled, not moulded, and fits three fingers. The base is left unglazed and sanded smooth so it will not scratch your table. Dishwasher and microwave safe; the glaze is lead-free and food safe.</p>
<p>Made in small batches of forty. When a batch sells out, the next one is usually ready within three weeks.</p></div>`;
  const buyBox = `<div class="product__info-wrapper"><p class="product__text subtitle">Stoneware Studio</p><h1>Speckled stoneware mug</h1><div class="price"><span class="price-item">€34,00</span> <span class="unit">Tax included. Shipping calculated at checkout.</span></div>
<fieldset class="variant-picker"><legend>Glaze</legend><label>Oat</label><label>Moss green</label><label>Midnight</label></fieldset>
<div class="shipping-note"><p>Order before 2 pm and your mug leaves our studio the same day, packed in recycled paper and cardboard.</p><p>Free returns within 30 days, no questions asked: send it back in its box and we refund you.</p></div>
<button class="product-form__submit">Add to cart</button>${description}
<div class="complementary"><p>Pairs well with</p><ul><li><a href="/products/saucer">Speckled saucer</a> €18,00</li><li><a href="/products/teapot">Stoneware teapot</a> €89,00</li></ul></div></div>`;

  it('keeps the description (product__description) and drops the buy box, shipping notes and pairings beside it', () => {
    const { markdown } = markdownOf(shopPage(`<section class="product">${buyBox}</section>`));
    expectOnly(
      markdown,
      ['Hand-thrown in our studio', 'lead-free and food safe', 'next one is usually ready'],
      ['Order before 2 pm', 'Free returns within 30 days', 'Pairs well with', 'Stoneware teapot'],
    );
  });
});

describe('shop pages: links that go nowhere labelled as controls', () => {
  it('drops "Add to Wish List" and kin on href="#" or javascript:, and keeps such links that are not controls', () => {
    const controls = `<div class="product-social-links"><a href="#" class="action towishlist">Add to Wish List</a></div>
<p><a href="javascript:void(0)">Click to see full view</a></p><p><a href="#">Sign in to continue</a></p>
<p><a href=" # ">Report an issue with this product or seller</a></p>`;
    const kept = `<h3>Questions</h3><ul><li><a href="#">Does the lamp take an LED bulb?</a></li></ul>
<p><a href="#">score: 1,184,788</a> <a href="#">Add</a></p>
<p>To keep it for later, <a href="#">add to your wish list</a> from the menu.</p>
<p><a href="/wishlist/add?item=7">Save this lamp</a> to your account.</p>`;
    const { markdown } = markdownOf(shopPage(`<div class="main-col">${product}${controls}${kept}</div>`));
    expectOnly(
      markdown,
      [
        'Vintage brass desk lamp',
        'Does the lamp take an LED bulb?',
        'score: 1,184,788',
        '[Add]',
        'add to your wish list',
      ],
      ['Add to Wish List', 'Click to see full view', 'Sign in to continue', 'Report an issue'],
    );
  });
});

describe('shop pages: customer reviews under their heading', () => {
  it('keeps a "Customer reviews" section that no class names reviews, as a WooCommerce tab\'s "2 reviews for"', () => {
    const reviews = `<div class="shopify-section"><h2>Customer reviews</h2><p>4.6 out of 5, from 128 ratings</p>
<div class="jdgm-rev"><strong>Great light</strong><p>Bright enough to read by, and the shade stays cool to the touch.</p></div>
<div class="jdgm-rev"><strong>Heavy base</strong><p>Nothing tips it over, even with the arm stretched all the way out.</p></div></div>`;
    const { markdown } = markdownOf(shopPage(`<div class="main-col">${product}${reviews}</div>`));
    expectOnly(markdown, [
      'Vintage brass desk lamp',
      'Customer reviews',
      'Bright enough to read by',
      'Nothing tips it over',
    ]);
  });
});
