// Ad slots inside a story: the label over an ad ("Advertisement - Page continues below", "Advertisement. Scroll to
// continue reading.") and house ads under an "Advertisement: …" heading in a newsletter's archive page.
import { describe, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, newsPage, storyEndingWith } from './__fixtures__/news-site.js';

const closing = `<p>The lanes will be reviewed after a year, the council said in its closing statement on Monday night.</p>`;

describe('ad labels in the text', () => {
  it('drops the label over an ad slot between two paragraphs, whatever its notice', () => {
    const body = `<div class="slot"><p class="lbl">Advertisement - Page continues below</p><div id="gpt-1"></div></div><p>Paragraph A of the story: residents spoke for two hours.</p><div class="mid"><span>Advertisement. Scroll to continue reading.</span></div><p>Paragraph B of the story: the ferry company asked for a second crossing.</p><p><small>ADVERTISEMENT (gone after registration)</small></p>${closing}`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(body), { head: articleHead }));
    expectOnly(
      markdown,
      ['Paragraph A of the story', 'Paragraph B of the story', 'reviewed after a year'],
      ['Page continues below', 'Scroll to continue', 'gone after registration'],
    );
  });

  it('drops a house ad under an "Advertisement: …" heading with the heading, up to the next heading', () => {
    const body = `<h2><strong>Advertisement: The Harbour Almanac 2026</strong></h2><p>Our yearbook of tides, ferries and festivals is out now, with 40 new walks along the coast. Order your copy today.</p><p><a href="/shop/almanac">Get the Almanac »</a></p><h2>What happens next</h2>${closing}`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(body), { head: articleHead }));
    expectOnly(
      markdown,
      ['What happens next', 'reviewed after a year'],
      ['Harbour Almanac', 'yearbook of tides', 'Get the Almanac'],
    );
  });

  it('keeps headings and sentences about advertising', () => {
    const body = `<h2>Advertisements on the new bus shelters</h2><p>Advertisements in the shelters will pay for their upkeep, the council said, as they do on the ring road.</p>${closing}`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(body), { head: articleHead }));
    expectOnly(markdown, ['Advertisements on the new bus shelters', 'will pay for their upkeep']);
  });
});
