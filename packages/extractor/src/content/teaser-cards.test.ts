import { describe, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, newsPage, storyEndingWith } from './__fixtures__/news-site.js';

const blurbs = [
  'The ferry company will add a late sailing on Fridays from June, after a trial last summer carried more than four thousand passengers. Tickets for the new crossing go on sale next month, and season passes will cover it at no extra cost, the company said on Tuesday.',
  'Residents of the old mill quarter asked the council to keep the weekly market on Saturdays. A petition with 2,300 signatures was handed in at the town hall, and the markets committee will discuss it when it meets in April, along with the traders’ request for covered stalls.',
  'The harbour festival returns in June with a longer programme: four days of music, a food market on the quay and a tall ship open to visitors. Organisers say the fireworks will move to the Sunday night, after complaints about the noise from residents last year.',
  'A new bakery has opened in the old post office on Market Street. The owners, who ran a stall at the Saturday market for six years, kept the building’s tiled counter and its brass letter box, and plan to open a small café upstairs before the summer.',
  'The school board has delayed its budget vote again, as talks with the county over the cost of the new sports hall go on. Parents will be able to put questions to the board at a public meeting in the library hall next Thursday evening, the chair said.',
  'Rail services between Riverside and the coast will be replaced by buses over the Easter weekend while engineers repair the bridge over the river. Passengers are advised to allow an extra forty minutes for their journeys and to check times before they travel.',
];

/** A row of "more stories" cards: a linked section label, a date, a linked title and a blurb of a few sentences. */
function cardRow(
  from: number,
  title = (i: number) => `Local news story number ${i} from the Courier newsroom`,
): string {
  const cards = blurbs
    .slice(from, from + 3)
    .map(
      (blurb, i) =>
        `<div class="post-item row"><div class="img-wrapper"><a class="image" href="/local/story-${from + i}" style="background-image:url(/img/${from + i}.jpg)"></a></div><div class="copy"><div class="tagline"><h5 class="categories"><a href="/local">Local news</a></h5><span class="date">Mar 8, 2026</span></div><h3 class="title"><a href="/local/story-${from + i}"><span>${title(from + i)}</span></a></h3><p class="content">${blurb}</p></div></div>`,
    )
    .join('');
  return `<div class="post-list">${cards}</div>`;
}

/** The story in its own wrapper, then sections of teaser cards that hold more text than the story itself. */
const storyAndReads = (title?: (i: number) => string): string =>
  `<div class="single-wrapper">${storyEndingWith('', 8)}</div><div class="reads"><div class="section content">${cardRow(0, title)}${cardRow(3, title)}</div></div>`;

describe('teaser cards below a story', () => {
  it('leave out rows of cards with blurbs that outweigh the story, on a declared article', () => {
    const { markdown } = markdownOf(newsPage(storyAndReads(), { head: articleHead }));
    expectOnly(
      markdown,
      ['The city council voted 7 to 2', 'Paragraph 7 of the report'],
      ['The ferry company will add a late sailing', 'Rail services between Riverside', 'Local news story number'],
    );
  });

  it('count a card of the same template whose title came out empty as a card', () => {
    const title = (i: number) => (i === 0 ? '' : `Local news story number ${i} from the Courier newsroom`);
    const { markdown } = markdownOf(newsPage(storyAndReads(title), { head: articleHead }));
    expectOnly(markdown, ['The city council voted 7 to 2'], ['The ferry company will add a late sailing']);
  });

  it('keep the cards on a page that does not declare itself an article', () => {
    const { markdown } = markdownOf(newsPage(storyAndReads()));
    expectOnly(markdown, ['The city council voted 7 to 2', 'The ferry company will add a late sailing']);
  });

  it('keep the cards of a section page with a short intro (the cards are the page)', () => {
    const page = `<div class="intro"><h1>Local news</h1><p>The latest from Riverside and the valley, updated through the day by the Courier’s newsroom.</p></div><div class="section content">${cardRow(0)}${cardRow(3)}</div>`;
    const { markdown } = markdownOf(newsPage(page, { head: articleHead }));
    expectOnly(markdown, ['The ferry company will add a late sailing', 'Rail services between Riverside']);
  });

  it('keep a roundup whose sections share a template and only a few link their title (not a row of cards)', () => {
    const brands = Array.from({ length: 12 }, (_, i) => {
      const name = `Harbour Outfitters branch number ${i}`;
      const title = i % 4 === 0 ? `<a href="/reviews/brand-${i}">${name}</a>` : name;
      return `<div class="brand-card"><h3>${title}</h3><p>${blurbs[i % blurbs.length]}</p></div>`;
    }).join('');
    const intro = storyEndingWith('', 8);
    const { markdown } = markdownOf(newsPage(`${intro}<div class="brands">${brands}</div>`, { head: articleHead }));
    expectOnly(markdown, ['The city council voted 7 to 2', 'Harbour Outfitters branch number 1', 'branch number 11']);
  });
});
