// FAQ accordions (the ARIA accordion pattern) put each question in the <button> that opens its answer.
import { describe, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, newsPage, storyEndingWith } from './__fixtures__/news-site.js';

const faq = (entries: [string, string][]): string =>
  `<section class="faq-block"><h2>Frequently asked questions</h2><div class="accordion">${entries
    .map(
      ([q, a], i) =>
        `<div class="accordion-item"><button class="accordion-toggle text-left font-bold" aria-expanded="${i === 0}" aria-controls="faq-${i}"><h3 class="accordion-title">${q}</h3><img src="/i/chevron.svg" alt=""></button><div id="faq-${i}" class="accordion-panel" role="region"><p>${a}</p></div></div>`,
    )
    .join('')}</div></section>`;

const entries: [string, string][] = [
  ['When will the work on Harbour Road start?', 'Work starts in May and lasts about ten weeks, weather permitting.'],
  [
    'Will I still be able to park outside my house?',
    'Parking on the north side goes while the lanes are built; the south side stays open.',
  ],
  ['Is the loading bay outside the market part of the plan?', 'The council agreed to study it before the summer.'],
];

describe('articles: FAQ questions in accordion toggles', () => {
  it('keeps the questions of a FAQ accordion with their answers, and drops other toggles and buttons', () => {
    const end = `${faq(entries)}<button class="comments-toggle" aria-expanded="false" aria-controls="comments">Show 14 comments</button><button class="btn-print" onclick="print()">Print</button>`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(end), { head: articleHead }));
    expectOnly(
      markdown,
      [
        'When will the work on Harbour Road start?',
        'Work starts in May',
        'Will I still be able to park outside my house?',
        'Is the loading bay outside the market part of the plan?',
      ],
      ['Show 14 comments', 'Print', 'Most read'],
    );
  });
});
