// "Popular …" and "Recommended …" title teaser boxes ("Popular posts", "Recommended for you"), but also sections of
// guides and reviews ("Popular red wines", "Recommended courses:"). After such a heading the section goes only when
// it looks like teasers: 10% or more of its text in links.
import { describe, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, newsPage, shareIcons } from './__fixtures__/news-site.js';

/** A wine guide on a declared article: intro, sections under `sections`, a closing line. */
function guide(sections: string): string {
  return `<article class="post"><h1>A beginner's guide to ordering wine</h1><div class="byline">By Sam Hill · 12 min read</div>${shareIcons}<div class="entry-content"><p>Ordering wine in a restaurant can feel like a test. It isn't: a few names and a couple of questions to the staff get you a bottle you will enjoy, at the price you had in mind.</p><h2>How to read a wine list</h2><p>Most lists group wines by colour, then by region or grape. Prices rise down each section, and the second-cheapest bottle is often the one with the highest mark-up, so look a little further.</p>${sections}<p>Whatever you order, ask for a taste first: the staff would rather swap a bottle than see you unhappy with it.</p></div></article>`;
}

describe('ambiguous furniture headings ("Popular …", "Recommended …")', () => {
  it('keeps a guide\'s "Popular red wines" and "Popular white wines" sections of prose', () => {
    const sections = `<h2>Popular Red Wines</h2><p>Pinot Noir is light and fruity, with soft tannins; it goes with salmon, duck and mushrooms, and it is the safest red for a table that orders different dishes.</p><p>Cabernet Sauvignon is full-bodied and firm, the classic match for steak and hard cheese; younger bottles need food to soften them.</p><h2>Popular White Wines</h2><p>Sauvignon Blanc is crisp and grassy, lovely with goat's cheese and green salads, while an oaked Chardonnay is rounder and buttery, a match for roast chicken.</p>`;
    const { markdown } = markdownOf(newsPage(guide(sections), { head: articleHead }));
    expectOnly(markdown, [
      'Popular Red Wines',
      'Pinot Noir is light and fruity',
      'Cabernet Sauvignon is full-bodied',
      'Sauvignon Blanc is crisp and grassy',
      'ask for a taste first',
    ]);
  });

  it('keeps course descriptions under a "Recommended courses:" heading in each section of a course guide', () => {
    const sections = ['Wine basics', 'Tasting like a sommelier']
      .map(
        (name, i) =>
          `<h2>${name}</h2><p>Section ${i}: an evening class at the city's wine school, run by working sommeliers.</p><h5><strong>Recommended courses:</strong></h5><div class="course"><h3>${name} ${i + 1}01</h3><p>Course ${i}: six weekly sessions of tasting and theory, with twelve wines a night from the main regions, and a short written test at the end for a certificate.</p></div>`,
      )
      .join('');
    const { markdown } = markdownOf(newsPage(guide(sections), { head: articleHead }));
    expectOnly(markdown, ['Course 0: six weekly sessions', 'Course 1: six weekly sessions', 'Section 1:']);
  });

  it('still drops a "Popular posts" box of linked titles and a "Recommended for you" row after the guide', () => {
    const sections = `<h3>Popular posts</h3><ul><li><a href="/p/1">Ten bottles under $20 that taste like $50</a></li><li><a href="/p/2">What "reserve" on a label really means</a></li><li><a href="/p/3">How to store an opened bottle</a></li></ul><h3>Recommended for you</h3><p><a href="/p/4">The sommelier's secret: ask about the by-the-glass list</a> · <a href="/p/5">Orange wine, explained</a></p>`;
    const { markdown } = markdownOf(newsPage(guide(sections), { head: articleHead }));
    expectOnly(
      markdown,
      ['How to read a wine list'],
      ['Popular posts', 'Ten bottles under $20', 'Recommended for you', 'Orange wine, explained'],
    );
  });
});
