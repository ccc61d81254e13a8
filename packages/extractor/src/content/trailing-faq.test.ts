// A story's closing FAQ that sits beside its rich-text body (a page builder's own block) comes with the body.
import { describe, it } from 'vitest';

import { expectOnly, markdownOf, newsPage } from './__fixtures__/news-site.js';

const steps = Array.from(
  { length: 7 },
  (_, i) =>
    `<h2>Step ${i + 1}: plan the budget line ${i + 1}</h2><p>Every event has a budget, and the line for step ${i + 1} is where most planners go wrong: they forget the deposits that venues ask for, the insurance that the city requires for public spaces, and the cost of the staff who set up and clear the hall. Write each of them down before you sign anything.</p><p>Ask two or three suppliers for quotes and keep them in one sheet, so that the team can compare them at a glance.</p>`,
).join('');

const faq = `<div class="blog-faq"><h2>Frequently asked questions</h2><div class="faq-item"><h3>How early should I start planning an event?</h3><p>For a conference of a few hundred people, start six to nine months ahead: the best venues are booked early, and speakers need time to prepare.</p></div><div class="faq-item"><h3>What is the biggest cost of an event?</h3><p>The venue and the catering usually take more than half of the budget, so settle them first and fit the rest around them.</p></div></div>`;

const related = `<div class="related-posts"><h3>Related posts</h3><ul><li><a href="/blog/venues">How to choose a venue</a></li><li><a href="/blog/catering">Catering on a budget</a></li><li><a href="/blog/speakers">Finding speakers</a></li></ul></div>`;

/** A page builder's blog post: the title block, then a wrapper holding the rich-text body and the FAQ block. */
function post(afterBody: string): string {
  return `<div class="blog-post"><div class="post-hero"><h1>Event management: 7 steps to planning an event</h1><p class="date">January 17, 2025</p></div><div class="post-body-wrap"><div class="rich-text w-richtext">${steps}</div>${afterBody}</div>${related}</div>`;
}

describe('articles: a FAQ after the body', () => {
  it('keeps the FAQ block that follows the rich-text body, not the related posts', () => {
    const { markdown } = markdownOf(newsPage(post(faq)));
    expectOnly(
      markdown,
      ['Step 7: plan the budget line 7', 'Frequently asked questions', 'The venue and the catering usually take'],
      ['How to choose a venue', 'Most read', 'Customer service'],
    );
  });

  it('leaves a FAQ out when a block of other prose stands between it and the body', () => {
    const promo = `<div class="callout"><p>Our event software books rooms, sends the invitations and tracks every budget line in one place, so that your team spends its time on the guests. Try it free for thirty days.</p></div>`;
    const { markdown } = markdownOf(newsPage(post(promo + faq)));
    expectOnly(markdown, ['Step 7: plan the budget line 7'], ['How early should I start planning']);
  });

  it("cleans the FAQ with the page's facts: a subscribe box at its end goes", () => {
    const box = `<div class="faq-cta"><div>Planning pass</div><div>Templates and checklists for every step, for members only.</div><div><a href="/plans">See the plans</a> | <a href="/sign-in">Sign in</a></div></div>`;
    const { markdown } = markdownOf(newsPage(post(faq.replace(/<\/div>$/, `${box}</div>`))));
    expectOnly(markdown, ['The venue and the catering usually take'], ['See the plans', 'for members only']);
  });

  it('leaves out a FAQ whose questions only link to other pages', () => {
    const links = `<div class="faq-links"><h2>FAQ</h2><ul><li><a href="/faq/start">How early should I start planning an event?</a> <a href="/faq/start">Find the answer</a></li><li><a href="/faq/cost">What is the biggest cost of an event?</a> <a href="/faq/cost">Find the answer</a></li><li><a href="/faq/staff">How many staff do I need?</a> <a href="/faq/staff">Find the answer</a></li></ul></div>`;
    const { markdown } = markdownOf(newsPage(post(links)));
    expectOnly(markdown, ['Step 7: plan the budget line 7'], ['Find the answer', 'How many staff do I need']);
  });
});
