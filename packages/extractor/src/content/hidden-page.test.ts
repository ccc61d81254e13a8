// A page whose content is hidden until a script shows it (`hidden-page.ts`): a shop's password gate, a deferred
// render. The hidden block holding most of the page's text is its content; a hidden overlay or a hidden block beside
// content the page shows stays out.
import { describe, expect, it } from 'vitest';

import { explainPage } from '../explain/index.js';
import { expectOnly, markdownOf } from './__fixtures__/news-site.js';

/** A product's own text: its title, price and description (about 1,300 characters). */
const product = `<h1>Stoneware Pour-Over Set</h1><p class="price">$68.00</p>
<p>A cone and a carafe thrown by hand from one batch of speckled clay, glazed inside and left bare outside so the warmth of the clay shows through the glaze line.</p>
<p>The cone takes a standard number 2 paper filter and sits on the carafe or on any mug up to ten centimetres across; three ridges inside it keep the filter off the wall so the water draws evenly.</p>
<p>The carafe holds 600 millilitres, enough for two large cups, and its spout pours without a drip. Both pieces go in the dishwasher and the microwave, but not on the stove or under the grill.</p>
<p>Each set is made in our studio in small runs, so the speckles, the glaze line and the size of each piece differ a little from the photographs and from one set to the next.</p>
<p>Shipping takes three to five days within the country; every set travels in a box of recycled card with paper padding, and a set that arrives broken is replaced at no cost.</p>
<p>Care: let the pieces cool before washing them in cold water, and dry the bare clay before stacking so that it does not mark the glaze of the piece below it.</p>`;

/** The shop's visible frame: its name, a menu and a small footer. */
const frame = (
  main: string,
): string => `<!doctype html><html><head><title>Stoneware Pour-Over Set | Kiln Row</title></head>
<body><header><a href="/">Kiln Row</a><ul><li><a href="/shop">Shop</a></li><li><a href="/about">About</a></li></ul></header>
${main}
<footer><p>Kiln Row Ceramics, 4 Mill Yard.</p></footer></body></html>`;

describe('a page whose content is hidden until a script shows it', () => {
  it("keeps a shop's product hidden behind a password gate, and says why", () => {
    const html = frame(`<div class="gate"><p>This store is protected. Enter the password to continue.</p>
<form><input type="password" name="password"><button>Enter</button></form></div>
<div class="gated-content" style="display:none"><main>${product}</main></div>`);
    expectOnly(markdownOf(html).markdown, [
      '# Stoneware Pour-Over Set',
      'thrown by hand from one batch of speckled clay',
      'let the pieces cool before washing them',
    ]);
    const { blocks } = explainPage(html, { url: 'https://shop.example/products/pour-over' });
    const block = blocks.find((b) => b.text.includes('The carafe holds 600 millilitres'));
    expect(block).toMatchObject({ verdict: 'kept', rule: 'hidden-page' });
  });

  it('keeps a page rendered into a hidden wrapper (`aria-hidden` until a script runs)', () => {
    const html = frame(`<main role="presentation" aria-hidden="true">${product}</main>`);
    expectOnly(markdownOf(html).markdown, ['thrown by hand from one batch', 'The carafe holds 600 millilitres']);
  });

  it('leaves a hidden overlay out, however long (a dialog, a modal, a menu)', () => {
    const policy = product.replace('Stoneware Pour-Over Set', 'Our cookie policy');
    for (const overlay of [
      `<div role="dialog" style="display:none">${policy}</div>`,
      `<div class="modal fade" aria-hidden="true">${policy}</div>`,
      `<div id="site-menu-drawer" hidden>${policy}</div>`,
    ]) {
      const { markdown } = markdownOf(frame(`<p>Kiln Row is closed for the holidays until 6 January.</p>${overlay}`));
      expect(markdown, overlay.slice(0, 40)).not.toContain('Our cookie policy');
    }
  });

  it('leaves a hidden block of links out, whatever its name (a mega menu)', () => {
    const sections = ['Mugs', 'Bowls', 'Plates', 'Vases', 'Planters', 'Teapots', 'Cups', 'Jugs', 'Platters', 'Candles'];
    const links = sections
      .map((s) => `<li><a href="/shop/${s.toLowerCase()}">${s} thrown by hand in our studio, all colours</a></li>`)
      .join('');
    const menu = `<div class="mega-dropdown" style="display:none"><ul>${links}</ul><ul>${links}</ul><ul>${links}</ul></div>`;
    const { markdown } = markdownOf(frame(`<p>Kiln Row is closed for the holidays until 6 January.</p>${menu}`));
    expect(markdown).not.toContain('thrown by hand in our studio');
  });

  it('leaves a hidden block out when the page shows its content (under three times the text it shows)', () => {
    // a shop's terms, hidden until the reader opens them: about twice the product's text
    const terms = `<div class="terms" style="display:none"><h2>Terms of sale</h2>
<p>These terms apply to every order placed through this shop by a consumer, whatever the country of delivery, and they prevail over any other terms unless we agree otherwise in writing before the order is confirmed.</p>
<p>Prices include value added tax at the rate in force on the day of the order; delivery is charged separately and shown before payment, and customs duties for deliveries outside the union are paid by the buyer on arrival.</p>
<p>An order is binding once the confirmation email is sent. Until then we may decline it, for instance when a piece is out of stock or the price shown was plainly wrong, and any payment taken is refunded within five working days.</p>
<p>You may withdraw from a purchase within fourteen days of receiving it without giving a reason; send the pieces back unused in their packaging, and the price and the standard delivery charge are refunded once they reach the studio.</p>
<p>Handmade pieces vary in colour, size and glaze, and such variation is not a defect. A piece that arrives broken or faulty is replaced or refunded at your choice when you tell us within thirty days, with a photograph of the damage.</p>
<p>Our liability for a piece is limited to its price, except where the law does not allow such a limit, and nothing in these terms affects the rights that consumer law gives you in your country of residence.</p>
<p>These terms are governed by the law of the country where the studio is registered; a dispute goes first to our customer service, then to the consumer mediation body named on our contact page, then to the courts.</p></div>`;
    const { markdown } = markdownOf(frame(`<div class="product">${product}${terms}</div>`));
    expectOnly(markdown, ['thrown by hand from one batch'], ['Terms of sale', 'These terms apply to every order']);
  });
});
