// Hidden panels of accordions known by their header (the WAI-ARIA accordion pattern) rather than their class words.
import { describe, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, newsPage, storyEndingWith } from './__fixtures__/news-site.js';

/** One section of a CSS-in-JS accordion: the header's button is collapsed, its panel `hidden` and `aria-hidden`. */
const section = (title: string, text: string): string =>
  `<div data-theme-key="collapsible-section" class="css-p1fz9n e2odqo16"><h3 class="css-i0aq8p e2odqo15"><button aria-expanded="false" class="css-17sxnkg e2odqo14"><span class="css-jlx6sx"><img src="/i/arrow.svg" alt=""></span><p>${title}</p></button></h3><div aria-hidden="true" hidden tabindex="-1" class="css-1k075w5 e2odqo13"><p>${text}</p></div></div>`;

const guide = `<h2>What to consider</h2><section class="embed"><div class="css-t3yjcu">${section(
  'Weight',
  'A lighter lane barrier is easier to move for street cleaning, but the heavier concrete kerbs last longer and stop parked vans drifting into the lane.',
)}${section(
  'Width',
  'Two metres is the width the council proposes for each direction, enough for a cargo bike to pass a child on a bicycle without leaving the lane.',
)}</div></section>`;

describe('collapsed accordion panels known by their header', () => {
  it('keeps the panel after a heading that holds only a collapsed toggle, whatever its class', () => {
    const { markdown } = markdownOf(newsPage(storyEndingWith(guide), { head: articleHead }));
    expectOnly(
      markdown,
      ['Council approves new bike lanes', 'heavier concrete kerbs last longer', 'enough for a cargo bike to pass'],
      ['as the river keeps rising', 'We and our 143 partners', 'Customer service', 'Most read'],
    );
  });

  it('still drops a hidden copy after a bare "Read more" toggle, and hidden text after other headings', () => {
    const readMore = `<p>Shop owners asked for a loading bay outside the market.</p><button type="button" class="read-link" aria-expanded="false" aria-controls="more-1">Read more</button><div class="read_div" id="more-1" aria-hidden="true" style="display: none;"><p>Hidden duplicate of the shop owners' request for a loading bay.</p></div><h2>Timeline</h2><div aria-hidden="true"><p>Decorative slide that repeats the timeline for the carousel.</p></div><h3><button aria-expanded="true">Open section</button></h3><div hidden><p>Stale hidden copy after an open toggle.</p></div>`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(readMore), { head: articleHead }));
    expectOnly(
      markdown,
      ['Council approves new bike lanes', 'loading bay outside the market'],
      ['Hidden duplicate', 'Decorative slide', 'Stale hidden copy'],
    );
  });

  it('keeps the answer panel that a collapsed question toggle right before it controls', () => {
    const entry = (i: number, question: string, answer: string): string =>
      `<div class="css-1fq2a1z"><button type="button" class="css-9k0p2w" aria-expanded="false" aria-controls="faq-content-${i}"><div><p>${question}</p></div></button><div id="faq-content-${i}" style="height:0;overflow:hidden" aria-hidden="true" class="css-u7w1ke"><p>${answer}</p></div></div>`;
    const faq = `<h2>FAQ</h2>${entry(0, 'When will the work on Harbour Road start?', 'The council expects the contractor to start in May, after the harbour festival, and to finish the lanes in about ten weeks.')}${entry(1, 'Will the buses still stop on Harbour Road?', 'Yes: the lanes pass behind the two bus stops, so that riders never cross the path of a bus pulling in.')}`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(faq), { head: articleHead }));
    expectOnly(
      markdown,
      ['Will the buses still stop on Harbour Road?', 'the lanes pass behind the two bus stops'],
      ['We and our 143 partners', 'Customer service', 'Most read'],
    );
  });
});
