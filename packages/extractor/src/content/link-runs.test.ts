import { describe, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, newsPage, storyEndingWith } from './__fixtures__/news-site.js';

const cities = ['Austin', 'Boston', 'Charlotte', 'Chicago', 'Cleveland', 'Columbus', 'Denver', 'Detroit'];

/** Paragraph after paragraph holding one linked title each, as page builders lay out "our other guides". */
const titleRun = cities
  .map(
    (c) =>
      `<p style="white-space:pre-wrap"><a href="/guides/${c.toLowerCase()}"><strong>Bike lanes in ${c}: what the council decided</strong></a></p>`,
  )
  .join('');

describe('runs of linked titles', () => {
  it("drop a run of linked titles after a story's last paragraph, without a list or a heading around them", () => {
    const { markdown } = markdownOf(newsPage(storyEndingWith(titleRun), { head: articleHead }));
    expectOnly(
      markdown,
      ['Paragraph 3 of the report', 'The city council voted 7 to 2'],
      ['Bike lanes in Austin', 'Bike lanes in Detroit'],
    );
  });

  it('keep a run that the text announces with a sentence', () => {
    const lead = `<p>The same committee has reported on bike lanes in eight other cities, and each report is online here:</p>`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(`${lead}${titleRun}`), { head: articleHead }));
    expectOnly(markdown, ['Paragraph 3 of the report', 'Bike lanes in Austin', 'Bike lanes in Detroit']);
  });

  it('keep titles with their pictures (a roundup of projects)', () => {
    const roundup = cities
      .map(
        (c) => `<p><a href="/p/${c}">Planter box from ${c}</a></p><p><img src="/img/${c}.jpg" alt="A planter box"></p>`,
      )
      .join('');
    expectOnly(markdownOf(newsPage(storyEndingWith(roundup), { head: articleHead })).markdown, [
      'Planter box from Austin',
      'Planter box from Detroit',
    ]);
  });
});
