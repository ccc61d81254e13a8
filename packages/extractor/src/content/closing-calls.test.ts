// A landing page's closing call (its last heading asking a question, a short pitch and a link styled as a button)
// goes; a FAQ's last question, a closing question followed by a newsletter form, and a closing section with more to
// say stay.
import { describe, expect, it } from 'vitest';

import { explainPage } from '../explain/index.js';
import { extract, page, prose } from './__fixtures__/synthetic-page.js';

const body = `<h1>Garden pond cleaning</h1>${prose('ponds', 3)}<h2>What a visit includes</h2>${prose('visits', 2)}`;
const closer = `<section class="closer"><div class="left"><h2>Ready to see the bottom of your pond again?</h2></div><div class="right"><p>Book a visit and we call you back the same day.</p><a class="main-btn" href="/contact">Book a visit</a></div></section>`;

describe('closing calls', () => {
  it("drops the landing page's closing question with its pitch and its button link", () => {
    const { text } = extract(page(`<main>${body}${closer}</main>`));
    expect(text).toContain('visits paragraph 2');
    expect(text).not.toContain('Ready to see the bottom of your pond again?');
    expect(text).not.toContain('we call you back the same day');
  });

  it('names its rule in explain', () => {
    const html = page(`<main>${body}${closer}</main>`);
    const block = explainPage(html, { url: 'https://example.test/ponds' }).blocks.find((b) =>
      b.text.includes('bottom of your pond'),
    );
    expect(block).toMatchObject({ verdict: 'dropped', rule: 'closing-call', module: 'closing-calls.ts' });
  });

  it("keeps a FAQ's last question and its answer, one of several question headings of its rank", () => {
    const faq = `<h2>Questions</h2><h3>Do you drain the pond?</h3><p>Only when the sludge is deep; most visits keep the water in.</p><h3>Do you work in winter?</h3><p>Yes, from November to March on dry days. <a class="text-btn" href="/winter">Winter visits</a></p>`;
    const { text } = extract(page(`<main>${body}${faq}</main>`));
    expect(text).toContain('Do you work in winter?');
    expect(text).toContain('from November to March on dry days');
  });

  it('keeps a closing question followed by a form (a newsletter box) or by more than a short pitch', () => {
    const form = `<h2>What do you think of wildlife ponds?</h2><form action="/subscribe"><input type="email" name="e"><button class="btn">Subscribe</button></form>`;
    expect(extract(page(`<main>${body}${form}</main>`)).text).toContain('What do you think of wildlife ponds?');
    const longer = `<h2>Why clean a pond at all?</h2>${prose('sludge', 2)}<a class="main-btn" href="/contact">Book a visit</a>`;
    const { text } = extract(page(`<main>${body}${longer}</main>`));
    expect(text).toContain('Why clean a pond at all?');
    expect(text).toContain('sludge paragraph 2');
  });

  it('keeps a closing call that is most of a short page', () => {
    const { text } = extract(page(`<main><h1>Ponds</h1><p>We clean ponds.</p>${closer}</main>`));
    expect(text).toContain('Ready to see the bottom of your pond again?');
  });
});
