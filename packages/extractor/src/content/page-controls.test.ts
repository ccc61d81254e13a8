// Controls of the page inside a guide's text: a "Hide" toggle of a sticky box and "Jump to details" links under each
// pick. A sentence that mentions jumping or showing is the text.
import { describe, expect, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, newsPage, storyEndingWith } from './__fixtures__/news-site.js';
import { CONTROL_TEXT } from './phrases/control-verbs.js';

const closing = `<p>The lanes will be reviewed after a year, the council said in its closing statement on Monday night.</p>`;

describe('page controls in the text', () => {
  it('drops a bare "Hide" toggle and links that jump to a place on the page', () => {
    const body = `<div class="sticky-tab"><div class="tab-text"><span class="tab-label">Hide</span> <img src="/i/caret.svg" alt="Caret down"></div></div><h3>1. The north route</h3><p>Paragraph A of the story: the north route runs past the market.</p><p><a href="#north-route-details">Jump to details</a></p><h3>2. The harbour route</h3><p>Paragraph B of the story: the harbour route keeps the bus stops.</p><p><a href="#harbour-route-details">» Skip to the details</a></p><p><a href="https://courier.example/local/2026/03/09/harbour-road-bike-lanes#top">&lt; back to top</a></p>${closing}`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(body), { head: articleHead }));
    expectOnly(
      markdown,
      ['Paragraph A of the story', 'Paragraph B of the story', 'reviewed after a year'],
      ['Hide', 'Jump to details', 'Skip to the details', 'back to top'],
    );
  });

  it('keeps the same words in a sentence, in code and in an instruction', () => {
    const body = `<p>You can <a href="#map">jump to the map</a> to see where the lanes will run, or read on for the timetable.</p><p>Run <code>git</code> <code>show</code> to see the change.</p><ol><li><span style="font-weight: bold">Hide</span> or <b>delete</b> the old layer of the plan.</li></ol>${closing}`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(body), { head: articleHead }));
    expectOnly(markdown, ['jump to the map', '`show`', 'Hide or **delete**']);
  });
});

describe("the table of a nowhere-link's control labels (phrases/control-verbs.ts)", () => {
  it.each([
    'Add to Wish List',
    '+ Add to Compare',
    'Sign in to continue',
    'Login',
    'Report an issue with this product',
    'Click to see full view',
    'Close',
    'Expand all',
    'Clear filters',
    'Show all',
    'Load more',
    'More reviews',
  ])('reads %s as a control', (label) => expect(CONTROL_TEXT.test(label)).toBe(true));

  it.each(['Add', 'Can I remove the strap?', 'Removal of old paint', 'Shares of the company', 'Showroom', 'Read'])(
    'leaves %s alone',
    (label) => expect(CONTROL_TEXT.test(label)).toBe(false),
  );
});
