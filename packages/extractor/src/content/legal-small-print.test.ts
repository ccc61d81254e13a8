// Legal small print after a story (`LEGAL` in hints.ts): a bank's investment disclosures, a broadcaster's transcript
// disclaimer in a `<p>`; and the disclosure widget of a shop's product panels, which is no disclosure.
import { describe, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, newsPage, storyEndingWith } from './__fixtures__/news-site.js';

/** A bank's disclosure block as its content pages end: an account note, the securities notice and the logos. */
const bankDisclosures = `<section class="c-site-disclosure"><div class="c-site-disclosure__wrapper"><p class="c-site-disclosure__paragraph">1 Subject to account eligibility. Savings rates are variable and may change after the account is opened.</p>
<div class="c-site-disclosure__securities"><p>Securities and advisory services are offered through Riverside Investments, LLC, a registered broker-dealer and investment adviser and member of its industry's regulators.</p>
<p>Please be aware that investment products are subject to investment risk, including the possible loss of the principal amount invested.</p>
<p class="footnote">NOT FDIC INSURED · NOT BANK GUARANTEED · MAY LOSE VALUE · NOT A DEPOSIT</p></div>
<div class="c-site-disclosure__logos"><img src="/img/equal-housing.svg" alt="Equal Housing Lender"></div></div></section>`;

/** Reader comments under the story, as the news site shows them. */
const comments = `<div class="comments"><h3>Comments (2)</h3><div class="c"><b>Mo</b><p>Finally! I cycle this road every day.</p></div><div class="c"><b>Ann</b><p>What about the parking?</p></div></div>`;

describe('legal small print after the story', () => {
  it('drop a disclosure block that is neither a sidebar nor a footer by its class words', () => {
    const { markdown } = markdownOf(
      newsPage(`${storyEndingWith('')}${bankDisclosures}${comments}`, { head: articleHead }),
    );
    expectOnly(
      markdown,
      ['The city council voted 7 to 2', 'Paragraph 3 of the report'],
      ['Subject to account eligibility', 'registered broker-dealer', 'NOT FDIC INSURED', 'Finally! I cycle'],
    );
  });

  it('drop a paragraph whose class names it a disclaimer (a transcript notice), which other class words do not', () => {
    const notice = `<p class="note disclaimer">Copyright © 2026 Riverside Radio. All rights reserved. Transcripts are created on a rush deadline and may be revised; the audio is the authoritative record.</p>`;
    const highlighted = `<p class="highlight">The committee will report on the first year of the lanes in the spring, with counts of cyclists and of collisions.</p>`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(`${highlighted}${notice}`), { head: articleHead }));
    expectOnly(
      markdown,
      ['Paragraph 3 of the report', 'with counts of cyclists and of collisions'],
      ['Riverside Radio', 'Transcripts are created on a rush deadline'],
    );
  });

  it("keep a shop's description and specifications in disclosure widgets (`details.disclosure`, `disclosure__content`)", () => {
    const panel = (title: string, body: string, open = ''): string =>
      `<details class="disclosure disclosure--row"${open}><summary class="disclosure__toggle"><h2 class="disclosure__title">${title}</h2></summary><div class="disclosure__panel"><div class="disclosure__content rte">${body}</div></div></details>`;
    const product = `<div class="product-info"><h1>Extra thick yoga mat, 1 inch</h1><div class="price">$39.99</div>
${panel('Description', '<p>A mat twice as thick as most, for knees, elbows and wrists that ache on the floor. The closed-cell foam does not soak up sweat, and the mat rolls up with its carrying strap.</p><p>Made of NBR foam; wipe it with a damp cloth and let it dry flat before rolling it up again.</p>', ' open')}
${panel('Specifications', '<p>Size: 71 by 24 inches. Thickness: 1 inch. Weight: 4.5 pounds. Material: NBR foam, free of latex and phthalates.</p>')}</div>`;
    const menu = `<div class="header"><a href="/">Stretch &amp; Co</a><details class="main-menu__disclosure"><summary>Menu</summary><ul><li><a href="/mats">Mats</a></li><li><a href="/blocks">Blocks</a></li><li><a href="/straps">Straps</a></li></ul></details><a href="/cart">Cart</a></div>`;
    const html = `<!doctype html><html><head><title>Extra thick yoga mat | Stretch &amp; Co</title></head><body>${menu}<main>${product}</main><div class="site-footer"><p>© 2026 Stretch &amp; Co. Free shipping on orders over $50.</p></div></body></html>`;
    const { markdown } = markdownOf(html);
    expectOnly(markdown, ['$39.99', 'twice as thick as most', 'wipe it with a damp cloth', 'Weight: 4.5 pounds']);
  });
});
