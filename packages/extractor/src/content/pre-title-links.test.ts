// Blocks of links set above the page's title inside the chosen block (a breadcrumb without a class that says so, a
// promotion bar, a help line linked to a contact page) go; unlinked lines above the title, a sentence holding a link,
// a featured item's card, and any block above an `<h1>` that is not the page's title stay.
import { describe, expect, it } from 'vitest';

import { explainPage } from '../explain/index.js';
import { extract, page, prose } from './__fixtures__/synthetic-page.js';

const crumbs = `<div class="trail"><a href="/products">Products</a> › <a href="/products/compute">Compute</a> › <a href="/lambda">Serverless functions</a></div>`;
const promo = `<p class="promo"><a href="/pricing#free-tier">One million requests free per month with the free tier</a></p>`;
const body = `<section class="intro"><p class="lead">Run code without thinking about servers or clusters.</p>${prose('functions', 4)}</section><section><h2>How it works</h2>${prose('triggers', 3)}</section>`;

describe('links above the title', () => {
  it("drops a breadcrumb and a promotion bar above the page's h1, and keeps an unlinked eyebrow", () => {
    const { text } = extract(
      page(
        `<main><div class="hero">${crumbs}${promo}<p class="eyebrow">Compute service</p><h1>Serverless functions</h1></div>${body}</main>`,
      ),
    );
    expect(text).not.toContain('Products › Compute');
    expect(text).not.toContain('One million requests free');
    expect(text).toContain('Compute service');
    expect(text).toContain('Serverless functions');
    expect(text).toContain('functions paragraph 4');
    expect(text).toContain('triggers paragraph 3');
  });

  it('names its rule in explain', () => {
    const html = page(`<main>${crumbs}${promo}<h1>Serverless functions</h1>${body}</main>`);
    const block = explainPage(html, { url: 'https://example.test/lambda' }).blocks.find((b) =>
      b.text.includes('One million requests free'),
    );
    expect(block).toMatchObject({ verdict: 'dropped', rule: 'pre-title-links', module: 'pre-title-links.ts' });
  });

  it('keeps a sentence above the title whose link is a part of it, and links announced by a line of text', () => {
    const line = `<p>Starting this month, every plan includes <a href="/plans">unlimited projects</a> and priority support for teams of any size.</p>`;
    const announced = `<p>(first read my colleagues' write-ups of this bug)<br><a href="https://one.example/post">How one easy trick broke three sites</a><br><a href="https://two.example/">A supply chain postmortem</a></p>`;
    const { text } = extract(page(`<main>${line}${announced}<h1>Serverless functions</h1>${body}</main>`));
    expect(text).toContain('every plan includes unlimited projects and priority support');
    expect(text).toContain('How one easy trick broke three sites');
  });

  it("keeps a featured item's card (a linked picture with its title) above the title", () => {
    const card = `<div class="featured"><a href="/recipes/rice-salad"><img src="/i/rice.jpg" alt=""></a><a href="/recipes/rice-salad">Crispy rice salad with herbs</a></div>`;
    const { text } = extract(page(`<main>${card}<h1>Air fryer recipes</h1>${body}</main>`));
    expect(text).toContain('Crispy rice salad with herbs');
  });

  it("keeps links above an h1 that is not the page's title: one set after the text has begun, or a linked card title", () => {
    const later = extract(page(`<main>${promo}${prose('history', 3)}<h1>Serverless functions</h1>${body}</main>`));
    expect(later.text).toContain('One million requests free');
    const linked = extract(
      page(`<main>${promo}<h1><a href="/lambda">Serverless functions</a></h1>${body}${prose('pricing', 3)}</main>`),
    );
    expect(linked.text).toContain('One million requests free');
  });
});
