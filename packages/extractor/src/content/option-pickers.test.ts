// Option pickers beside a product (`option-pickers.ts`): a colour's radio buttons and a quantity stepper go with their
// labels when a price stands near; a gallery's colour switch without a price, plans described in sentences, a card's
// linked title, the product's name, a long list of options and a story's pickers keep theirs.
import { textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';

import { explainPage } from '../explain/index.js';
import { extractMainContent } from './index.js';
import { findFormControls } from './form-controls.js';
import { findOptionPickers } from './option-pickers.js';

const radios = (name: string, labels: string[]): string =>
  labels.map((l, i) => `<label><input type="radio" name="${name}" value="${i}"> ${l}</label>`).join('');

/** A colour picker: a label and three options. */
const colours = `<div class="o-1"><span>Color: Graphite</span><div class="o-2">${radios('colour', ['Graphite', 'Pale Grey', 'Rose'])}</div></div>`;
const quantity = `<div class="o-3"><label for="q">Quantity</label><input id="q" type="number" value="1"></div>`;

const description = `<p>The mouse sits at a 57 degree angle, so your forearm rests in a natural handshake position and the strain on your wrist drops; a sensor of 4000 DPI needs four times less hand movement than a standard one.</p><p>It charges over USB-C, and one minute of charging gives three hours of use.</p>`;

/** A product page: its name, a buy box holding `box` (a price, unless `price` is empty), its description. */
const page = (box: string, price = '<p class="o-4">$79.99</p>', head = ''): string =>
  `<!doctype html><html><head><title>T</title>${head}</head><body><div class="k-1"><a href="/">Shop</a></div><main class="k-2"><h1>Vertical Mouse</h1><div class="o-5">${price}${box}<button>Add to cart</button></div>${description}</main></body></html>`;

const text = (html: string): string => textContent(extractMainContent(parseDocument(html))).replace(/\s+/g, ' ');

describe('extractMainContent: option pickers beside a product', () => {
  it("drops a colour's radio buttons and a quantity stepper with their labels when a price stands near", () => {
    const out = text(page(`${colours}${quantity}`));
    expect(out).toContain('Vertical Mouse');
    expect(out).toContain('$79.99');
    expect(out).toContain('natural handshake position');
    expect(out).not.toContain('Color: Graphite');
    expect(out).not.toContain('Pale Grey');
    expect(out).not.toContain('Quantity');
  });

  it('keeps a picker without a price near it (a gallery switching its colour)', () => {
    expect(text(page(colours, ''))).toContain('Pale Grey');
  });

  it('keeps options described in sentences (plans), and a long list of options', () => {
    const plans = `<div class="o-6">${radios('plan', ['Standard: send up to 6,000 emails each month to your contacts', 'Premium: send up to 150,000 emails each month, with phone support'])}</div>`;
    expect(text(page(plans))).toContain('Premium: send up to 150,000');
    const sizes = Array.from({ length: 24 }, (_, i) => `<span>EU ${30 + i} / US ${i + 1} narrow</span>`).join('');
    const long = `<div class="o-7" role="radiogroup">${sizes}</div>`;
    expect(text(page(long))).toContain('EU 53 / US 24');
  });

  it("stops at a card's linked title, at a block that is more than a label, and never takes the page's <h1>", () => {
    const card = `<div class="o-8"><a href="/p/pad">Desk Pad</a>${colours}</div>`;
    const out = text(page(card));
    expect(out).toContain('Desk Pad');
    expect(out).not.toContain('Pale Grey');
    const note = `<div class="o-9"><span>Ships within two working days from our warehouse in Leeds</span>${colours}</div>`;
    const noted = text(page(note));
    expect(noted).toContain('Ships within two working days');
    expect(noted).not.toContain('Pale Grey');
    const titled = `<div class="o-10"><h1>Vertical Mouse</h1>${radios('colour', ['Graphite', 'Rose'])}</div>`;
    const html = `<!doctype html><html><body><main class="k-2"><div class="o-5"><p>$79.99</p>${titled}</div>${description}</main></body></html>`;
    expect(text(html)).toContain('Vertical Mouse');
  });

  it("keeps a declared article's pickers", () => {
    const head = '<meta property="og:type" content="article">';
    expect(text(page(colours, undefined, head))).toContain('Pale Grey');
  });

  it('finds radio groups of two or more, radiogroups and number fields, not a lone radio button or a <select>', () => {
    const doc = parseDocument(
      `<div>${radios('a', ['One', 'Two'])}</div><div>${radios('b', ['Alone'])}</div><div role="radiogroup"></div>${quantity}<div><select><option>Newest</option><option>Oldest</option></select></div>`,
    );
    expect([...findOptionPickers(findFormControls(doc)).values()]).toEqual([0, 1, 2]);
  });

  it('names its rule in explainPage', () => {
    const block = explainPage(page(colours), { url: 'https://shop.example/p/vertical-mouse' }).blocks.find((b) =>
      b.text.includes('Pale Grey'),
    );
    expect(block).toMatchObject({ verdict: 'dropped', rule: 'option-picker', module: 'option-pickers.ts' });
  });
});
