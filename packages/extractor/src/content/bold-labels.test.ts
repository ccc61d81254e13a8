// Blog themes and page builders title their "You might also like" lists with a bold paragraph instead of a heading.
// On an article, such a label opens a furniture section like a heading does.
import { describe, expect, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, newsPage, shareIcons } from './__fixtures__/news-site.js';

/** A DIY blog post: intro, steps with photos, a pin-it prompt; `end` goes after the last step, inside the body. */
function post(end: string): string {
  const steps = Array.from(
    { length: 5 },
    (_, i) =>
      `<h2>Step ${i + 1}</h2><p><img src="/img/step-${i + 1}.jpg" alt="Step ${i + 1} of the planter build"></p><p>For step ${i + 1}, sand the cedar boards along the grain, then wipe off the dust with a damp cloth and let the wood dry for an hour before you glue the next panel in place.</p>`,
  ).join('');
  return `<article class="post type-post"><h1>12 DIY woodworking projects for your porch</h1><div class="entry-meta">Posted on March 3, 2026 by Erin</div>${shareIcons}<div class="entry-content"><p>Spring is here and the porch needs some love. These weekend builds use scrap cedar, a drill and a sander, and none of them takes more than an afternoon.</p>${steps}<p>Be sure to check out the rest of the series below, and tell me in the comments which one you will build first!</p>${end}</div></article>`;
}

describe('articles: bold labels that title a furniture section', () => {
  it('drops a bold "YOU MIGHT ALSO LIKE:" paragraph with the linked titles after it', () => {
    const end = `<p><strong>YOU MIGHT ALSO LIKE:</strong></p><ul><li><strong><a href="/deck-porch-projects/">12 DIY Deck &amp; Porch Projects</a></strong></li><li><strong><a href="/lego-table/">Turn a Baby Changing Table into a Lego Table</a></strong></li><li><strong><a href="/farmhouse-table/">DIY Modern Farmhouse Dining Table &amp; Benches</a></strong></li><li><strong><a href="/gallery/">Project Gallery</a></strong></li></ul><p><a href="/subscribe/"><img src="/img/subscribe-box.png" alt="subscribe box post footer"></a></p>`;
    const { markdown } = markdownOf(newsPage(post(end), { head: articleHead }));
    expectOnly(
      markdown,
      ['For step 5, sand the cedar boards', 'Be sure to check out the rest'],
      ['YOU MIGHT ALSO LIKE', 'Deck & Porch Projects', 'Lego Table', 'Farmhouse Dining Table'],
    );
  });

  it('drops a <b> label "Related articles from the blog:" and its list of linked titles with dates', () => {
    const end = `<div><b>Related Articles from the Trash Talk blog:</b></div><ul class="wp-block-list"><li><a href="/blog/composting-101/">Composting 101: what goes in the bin</a> (May 2025)</li><li><a href="/blog/yard-waste/">Where your yard waste goes after pickup</a> (April 2025)</li><li><a href="/blog/bulk-pickup/">How to book a bulk pickup</a> (March 2025)</li></ul>`;
    const { markdown } = markdownOf(newsPage(post(end), { head: articleHead }));
    expectOnly(
      markdown,
      ['For step 5, sand the cedar boards'],
      ['Related Articles from the Trash Talk blog', 'Composting 101', 'bulk pickup'],
    );
  });

  it('keeps bold lead-ins of the text ("Popular finishes include:") and the list after them', () => {
    const end = `<p><strong>Popular outdoor finishes include:</strong></p><ul><li><a href="/finishes/spar-urethane/">Spar urethane</a>, which stands up to rain and sun</li><li><a href="/finishes/teak-oil/">Teak oil</a>, which soaks in and keeps the grain visible</li><li><a href="/finishes/exterior-paint/">Exterior paint</a>, the easiest to touch up</li></ul><p>Whatever you choose, give it two coats and let it cure for a full day before the planter sees water.</p>`;
    const { markdown } = markdownOf(newsPage(post(end), { head: articleHead }));
    expectOnly(markdown, ['Popular outdoor finishes include', 'Spar urethane', 'Teak oil', 'give it two coats']);
  });
});

describe('bold labels: only on articles', () => {
  it('leaves a bold label alone on a page that does not declare itself an article', () => {
    const end = `<p><strong>You might also like:</strong></p><ul><li><a href="/planters/">Cedar planters</a> from our workshop, built to order in six sizes</li><li><a href="/benches/">Porch benches</a> in cedar and oak, with a ten-year warranty</li><li><a href="/tables/">Side tables</a> that match the benches, sold as a set or alone</li></ul>`;
    const { markdown } = markdownOf(newsPage(post(end)));
    expect(markdown).toContain('Porch benches');
  });
});
