import { describe, expect, it } from 'vitest';

import { extractPage } from '../page.js';
import { htmlToMarkdown } from './html-to-markdown.js';
import { centsPlace, withCents } from './price-cents.js';

const md = (html: string) => htmlToMarkdown(html);

describe("a price's cents in <sup>", () => {
  it.each([
    ['<p>$19<sup>99</sup> Now:</p>', '$19.99 Now:'],
    ['<p>19 €<sup>99</sup></p>', '19.99 €'],
    ['<p>19€<sup>99</sup></p>', '19.99€'],
    ['<p>EUR 19<sup>99</sup></p>', 'EUR 19.99'],
    ['<p>19 USD<sup>99</sup></p>', '19.99 USD'],
    ['<p>$1,299<sup>00</sup></p>', '$1,299.00'],
    // cents that bring their own point (WCXB 2960's and 3006's shape) keep it
    ['<p>$1,899<sup>.00</sup></p>', '$1,899.00'],
    ['<p><b>$1,899</b><sup>.00</sup> was $2,199<sup>.99</sup></p>', '**$1,899.00** was $2,199.99'],
    ['<p>19 €<sup>,99</sup></p>', '19,99 €'],
    // an amount grouped with `.` takes `,` for its cents: `1.299.99` would read as 1299 thousand
    ['<p>1.299 €<sup>99</sup></p>', '1.299,99 €'],
    // the emphasis around the price keeps the cents inside it
    ['<p><b>$159</b><sup>99</sup></p>', '**$159.99**'],
    ['<p><span class="price">$19<sup><span>99</span></sup></span></p>', '$19.99'],
    // a currency sign in `<sup>` directly before the amount (REI's shape, WCXB 0628) is the sign
    ['<p><sup>$</sup>19<sup>99</sup></p>', '$19.99'],
    ['<p><span class="num"><sup>$</sup>9</span> Member Reward</p>', '$9 Member Reward'],
    ['<p><sup>€</sup><b>19</b></p>', '€**19**'],
    ['<p><sup>USD</sup>19</p>', 'USD19'],
  ])('writes %s as %s', (html, markdown) => {
    expect(md(html)).toBe(markdown);
  });

  it.each([
    // not after a price: footnote marks, powers, ordinals, trademarks
    ['<p>Shipping is free<sup>12</sup></p>', 'Shipping is free<sup>12</sup>'],
    [
      '<p>x<sup>2</sup> and 10<sup>th</sup> and 10<sup>15</sup></p>',
      'x<sup>2</sup> and 10<sup>th</sup> and 10<sup>15</sup>',
    ],
    ['<p>ABC 19<sup>99</sup></p>', 'ABC 19<sup>99</sup>'],
    // after a price but not cents: one digit, a mark, a price that has its decimals, a space between
    ['<p>$19<sup>1</sup> and $19<sup>TM</sup></p>', '$19<sup>1</sup> and $19<sup>TM</sup>'],
    ['<p>$19.50<sup>99</sup> and 19,50 €<sup>99</sup></p>', '$19.50<sup>99</sup> and 19,50 €<sup>99</sup>'],
    ['<p>$19 <sup>99</sup></p>', '$19 <sup>99</sup>'],
    // a point and digits in `<sup>` after anything but a price, or not two digits after one
    [
      '<p>x<sup>.5</sup> and 10<sup>.25</sup> and v2<sup>.00</sup></p>',
      'x<sup>.5</sup> and 10<sup>.25</sup> and v2<sup>.00</sup>',
    ],
    ['<p>$19<sup>.5</sup> and $19<sup>..99</sup></p>', '$19<sup>.5</sup> and $19<sup>..99</sup>'],
    // a sign's `<sup>` not directly before digits, or holding more than a sign or a real code
    ['<p><sup>$</sup> 19 and x<sup>$</sup>y</p>', '<sup>$</sup> 19 and x<sup>$</sup>y'],
    ['<p><sup>ABC</sup>19 and <sup>$1</sup>9</p>', '<sup>ABC</sup>19 and <sup>$1</sup>9'],
  ])('leaves %s as %s', (html, markdown) => {
    expect(md(html)).toBe(markdown);
  });

  it('replays a <sup> after a price that is a footnote reference as one', () => {
    expect(md('<p>$19<sup><a href="#fn1">12</a></sup></p><ol><li id="fn1">Before tax.</li></ol>')).toBe(
      '$19[^12]\n\n[^12]: Before tax.',
    );
  });

  it('keeps the <sup> in raw-HTML mode, which is faithful to the page', () => {
    expect(htmlToMarkdown('<p>$19<sup>99</sup></p>', { rawHtml: true })).toBe('$19<sup>99</sup>');
    expect(htmlToMarkdown('<p><sup>$</sup>9</p>', { rawHtml: true })).toBe('<sup>$</sup>9');
  });

  it('is the same with and without onlyMainContent', () => {
    const html = `<html><body><nav><a href="/">Home</a></nav><main><h1>Wool Beanie</h1>
      <p class="price">$19<sup>99</sup> Now: in stock</p><p>A warm hat knitted from merino wool, one size.</p>
      </main></body></html>`;
    for (const onlyMainContent of [true, false]) {
      const page = extractPage(html, {
        url: 'https://shop.example/wool-beanie/',
        onlyMainContent,
        formats: { markdown: true },
      });
      expect(page.markdown).toContain('$19.99 Now: in stock');
    }
  });

  it('reads text the same way for the product reader (withCents)', () => {
    expect(withCents('$19', '99')).toBe('$19.99');
    expect(withCents('Only 19 €', ' 99 ')).toBe('Only 19.99 €');
    expect(withCents('$19', 'th')).toBeUndefined();
    expect(withCents('$1,899', '.00')).toBe('$1,899.00');
    expect(withCents('Page 19', '99')).toBeUndefined();
    expect(centsPlace('**$159**')).toEqual({ back: 2, mark: '.' });
  });
});
