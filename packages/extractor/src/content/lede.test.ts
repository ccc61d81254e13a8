// The container walk stops at the story's body; an intro that sits beside the body, after the title, comes with it.
import { describe, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, newsPage, shareIcons } from './__fixtures__/news-site.js';

const tips = Array.from(
  { length: 10 },
  (_, i) =>
    `<li><strong>Tip ${i + 1}.</strong> Treat your online class like a regular class: block the time in your calendar, sit at the same desk every day, close the other tabs and write down one question for the instructor before each session, so that the week's work never piles up on Sunday night.</li>`,
).join('');

/** A blog post whose body is an intro paragraph and a long numbered list of tips (the list holds 85% of the text). */
const tipsPost = `<article class="post type-post"><header class="entry-header"><h1>10 tips to complete online courses</h1><div class="entry-meta">Posted on June 29, 2020 by <a href="/author/staff">Staff</a></div></header>${shareIcons}<div class="entry-content"><p>Last spring, many students suddenly found themselves in online courses. The quick switch was bumpy for some of them: no bell to tell them when class starts, no classmates at the next desk, and the same laptop for homework, games and messages. Students who already had a routine did far better, and the habits they used are easy to learn. Here are ten of them, gathered from instructors and from students who finished their courses with good grades.</p><ol>${tips}</ol></div></article>`;

const sections = Array.from(
  { length: 8 },
  (_, i) =>
    `<h2>${i + 1}. Rental company ${i + 1}</h2><p>Company ${i + 1} has desks at most large airports and in the city centres, and its prices for a compact car start at about forty dollars a day. Drivers under 25 pay a young driver fee, and one-way rentals between states cost extra, so compare the total price before you book.</p>`,
).join('');

/**
 * A travel guide whose intro paragraphs sit in their own wrapper between the headline block and the body, with an
 * author tooltip (a bio shown on hover) and an affiliate disclosure beside them.
 */
function guide(intro: string): string {
  return `<article class="blog-post"><div class="post-top"><h1>10 best car rentals in the USA</h1><div class="written-by">Written by <a href="/about">Erin Walsh</a><div class="author-tooltip"><p>Erin Walsh is a travel writer who has driven through all fifty states and reviews rental companies, campgrounds and road trip gear for this blog.</p></div></div></div><div class="post-columns">${intro}<div class="disclosure-text"><p>Note: some posts contain affiliate links, which earn us a small commission at no cost to you. Read more in our privacy policy.</p></div><div class="post-main">${sections}</div></div></article>`;
}

const introParagraphs = `<div class="post-intro"><p>Whether you are planning a cross-country road trip or exploring one of the big cities, a rental car gives you the freedom to go where the trains do not.</p><p>With thousands of rental agencies in the country, finding the right one for your budget takes time. We compared prices, fees and service at the largest companies, so you do not have to. Our guide shows the best picks for every budget, from airport desks to one-way rentals.</p></div>`;

/** An older site's article: the summary laid out in a one-cell table between the linked title and the body. */
const tableSummary = `<div class="article"><div class="articleStats">October 08, 2024</div><div class="articleNumber">Chart</div><h1 class="articleTitle"><a href="#">Agency rates for all 50 states</a></h1><div class="articleFunctions"><a href="/rss">RSS</a> <a href="/newsletters">Free Newsletters</a></div><div class="articleSummary"><table><tr><td width="500"><strong>SUMMARY:</strong><p>Setting the right hourly rate can make or break your agency's bottom line. So how do you stack up against six thousand others?</p><p>And on the other side of it, as a brand-side marketer you need to know what a fair price to pay is. This chart shows the average hourly rate in every state.</p><p>We asked agency owners in every state what they charge for search, social and content work, and ranked the states by their average rate.</p></td></tr></table></div><div class="articleContent">${sections}</div></div>`;

describe('articles: the intro beside the body', () => {
  it('keeps the intro paragraph before a long list of tips that the walk chose', () => {
    const { markdown } = markdownOf(newsPage(tipsPost, { head: articleHead }));
    expectOnly(
      markdown,
      ['Last spring, many students suddenly found themselves in online courses', 'Tip 10.'],
      ['Posted on June 29, 2020', 'Most read', 'We and our 143 partners', 'Customer service'],
    );
  });

  it('keeps intro paragraphs in their own wrapper before the body, not the bio tooltip nor the disclosure', () => {
    const { markdown } = markdownOf(newsPage(guide(introParagraphs), { head: articleHead }));
    expectOnly(
      markdown,
      [
        'Whether you are planning a cross-country road trip',
        'We compared prices, fees and service',
        '8. Rental company 8',
      ],
      ['Erin Walsh is a travel writer', 'some posts contain affiliate links', 'Most read'],
    );
  });

  it('keeps a summary laid out in a one-cell table between the title and the body', () => {
    const { markdown } = markdownOf(newsPage(tableSummary, { head: articleHead }));
    expectOnly(
      markdown,
      [
        'Setting the right hourly rate can make or break',
        'This chart shows the average hourly rate',
        '8. Rental company 8',
      ],
      ['Free Newsletters', 'Most read'],
    );
  });

  it('leaves a one-sentence standfirst out (a dek, not an intro)', () => {
    const dek = `<p class="post-dek">Our picks for every budget, from airport desks to one-way rentals between states.</p>`;
    const { markdown } = markdownOf(newsPage(guide(dek), { head: articleHead }));
    expectOnly(markdown, ['8. Rental company 8'], ['Our picks for every budget']);
  });
});
