// FAQ accordions (the ARIA accordion pattern) put each question in the <button> that opens its answer.
import type { Element } from 'domhandler';
import { getElementsByTagName } from 'domutils';
import { describe, expect, it } from 'vitest';

import { parseHtml } from '../dom/parse.js';
import { isQuestionToggle } from './question-toggles.js';
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

describe('isQuestionToggle', () => {
  const button = (html: string): Element => {
    const found = getElementsByTagName('button', parseHtml(html).children, true, 1)[0];
    if (!found) throw new Error('no button');
    return found;
  };
  it('reads the end of the text as the text would: trimmed, after closing quotes and brackets, through nested elements', () => {
    const cases: [string, boolean][] = [
      ['<button aria-expanded="false">Is it open?</button>', true],
      ['<button aria-controls="a"><h3>Is it <em>open?</em></h3>\n  <img alt="">  </button>', true],
      ['<button aria-expanded="true">Is it “open?”)</button>', true],
      ['<button aria-expanded="true"><span>Is it open?</span><span>”</span> <!-- x --></button>', true],
      ['<button aria-expanded="true">Is it open? ”</button>', false],
      ['<button aria-expanded="true">Is it open? Show</button>', false],
      ['<button aria-expanded="true"><span>Why?</span><span>Menu</span></button>', false],
      ['<button aria-expanded="true">   </button>', false],
      ['<button>Is it open?</button>', false],
      [`<button aria-expanded="false">${'<span><b>'.repeat(50)}Why?${'</b>'.repeat(50)}</button>`, true],
    ];
    for (const [html, expected] of cases) expect(isQuestionToggle(button(html)), html).toBe(expected);
  });
});
