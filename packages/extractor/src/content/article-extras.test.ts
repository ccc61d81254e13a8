// What surrounds the body of news and blog articles on real pages, and is not the article: author boxes and the
// promotions a site puts after its posts. Built on the news site of news-pages.test.ts (cookie bar, menus, most-read
// box, footer).
import { describe, expect, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, newsPage, story } from './__fixtures__/news-site.js';

const paragraphs = Array.from(
  { length: 6 },
  (_, i) =>
    `<p>Paragraph ${i} of the report: the council's transport committee heard from residents, shop owners and the ferry company over three meetings, and the final design moved the lanes away from the bus stops.</p>`,
).join('');
const longStory = story.replace('</div></article>', `${paragraphs}</div></article>`);

/** The story with `html` at the end of its body, where blog themes put author boxes (inside `entry-content`). */
const withEnd = (html: string): string => longStory.replace('</div></article>', `${html}</div></article>`);

describe('articles: author boxes', () => {
  it('drops a WordPress author box (photo, "About the author", bio, links)', () => {
    const box = `<div class="abh_box abh_box_down"><ul class="abh_tabs"><li class="abh_about abh_active"><a href="#abh_about">About</a></li><li class="abh_posts"><a href="#abh_posts">Latest Posts</a></li></ul><div class="abh_tab_content"><section class="vcard author abh_about_tab abh_tab"><div class="abh_image"><img src="/avatars/jane.jpg" alt="Jane Doe"></div><div class="abh_text"><div class="abh_name">Jane Doe</div><div class="abh_job">Transport reporter at The Riverside Courier</div><div class="description note abh_description">Jane Doe has covered transport and planning in Riverside since 2014. Before joining the Courier she worked for a cycling magazine and a local radio station.</div></div></section></div></div>`;
    const { markdown } = markdownOf(newsPage(withEnd(box), { head: articleHead }));
    expectOnly(
      markdown,
      ['Paragraph 5 of the report'],
      ['has covered transport and planning', 'Latest Posts', 'cycling magazine'],
    );
  });

  it('drops author cards named author-card, about-author and author-section, whatever the page builder', () => {
    const cards = [
      `<div class="post-page-author-card"><img src="/a.jpg" alt=""><div><b>Jane Doe</b> <span>Senior writer</span><p>Jane writes about cities, bicycles and the people who plan them. She lives on the north side of Harbour Road.</p></div></div>`,
      `<div class="about_author"><h4>About the Author</h4><p>Sam Hill is an editor at the Courier who has reported on local politics for twenty years, and the author of two books about the valley.</p></div>`,
      `<section class="AuthorsSection_authorsSection__x1"><h4>Written by the Courier newsroom</h4><p>Our reporters check every fact with two sources before a story is published, and correct mistakes at the foot of the article.</p></section>`,
    ];
    for (const card of cards) {
      const { markdown } = markdownOf(newsPage(withEnd(card), { head: articleHead }));
      expectOnly(
        markdown,
        ['Paragraph 5 of the report'],
        ['the people who plan them', 'two books about the valley', 'check every fact'],
      );
    }
  });

  it('keeps a short byline whose class names the author, and listings whose items carry author-<name> classes', () => {
    const byline = `<div class="author-info">By <a href="/staff/jane-doe">Jane Doe</a>, 9 March 2026</div>`;
    const { markdown } = markdownOf(
      newsPage(longStory.replace('<div class="txt">', `<div class="txt">${byline}`), { head: articleHead }),
    );
    expect(markdown).toContain('9 March 2026');
    const items = Array.from(
      { length: 6 },
      (_, i) =>
        `<article class="entry hentry category-news author-jane-doe"><h2><a href="/n/${i}">Council news item ${i}</a></h2><p>Summary ${i}: the council met on Monday and agreed the next steps for the harbour, the market and the library, with a vote due in May.</p></article>`,
    ).join('');
    const listing = markdownOf(newsPage(`<div class="list"><h1>Council news</h1>${items}</div>`, { side: '' }));
    expectOnly(
      listing.markdown,
      Array.from({ length: 6 }, (_, i) => `Summary ${i}:`),
    );
  });
});

describe('articles: promotions, disclaimers and calls to action inside the story', () => {
  it('drops "About the reviewer", "Disclaimer:" and "Also in the news" sections after the story', () => {
    const sections = [
      `<h2>About the Reviewer</h2><img src="/r.jpg" alt=""><p>Dr. Ann Lee, Editor in Chief. Dr. Lee is a physician specialising in sports medicine, practising in Riverside.</p><a href="/authors/ann-lee">View all posts by Ann Lee</a>`,
      `<h2>Disclaimer:</h2><p>As a service to our readers, the Courier provides access to its archive. Please note the date of last review on all articles.</p>`,
      `<h3>Also in the news</h3><ul><li><a href="/n/1">Salvation Army hands out 1,500 Christmas hampers</a> <span>December 19</span></li><li><a href="/n/2">Clerk of the House recalled from retirement</a></li></ul>`,
    ];
    for (const section of sections) {
      const { markdown } = markdownOf(newsPage(withEnd(section), { head: articleHead }));
      expectOnly(
        markdown,
        ['Paragraph 5 of the report'],
        [
          'About the Reviewer',
          'sports medicine',
          'Disclaimer',
          'date of last review',
          'Also in the news',
          'Christmas hampers',
        ],
      );
    }
  });

  it('drops deal-post furniture: sponsored labels, price buttons, sign-up thanks and print links', () => {
    const deal = `<p class="kicker">• SPONSORED •</p><p>The laptop is over $1,300 off just in time for the holidays, thanks to its grade A refurbished status.</p>
<div class="shop-card"><a class="offer" href="https://deals.example/laptop">Check price at Amazon</a></div>
<div class="signup"><p>Be the first to know!</p><p>Thanks for signing up!</p></div>
<div class="tools"><a href="#" onclick="print()">Print This Page</a></div><a href="https://deals.example/laptop">Opens in a new window</a>`;
    const { markdown } = markdownOf(newsPage(withEnd(deal), { head: articleHead }));
    expectOnly(
      markdown,
      ['grade A refurbished status'],
      [
        'SPONSORED',
        'Check price',
        'Be the first to know',
        'Thanks for signing up',
        'Print This Page',
        'Opens in a new window',
      ],
    );
  });

  it('drops follow and newsletter prompts between the paragraphs, keeps a paragraph that mentions a newsletter', () => {
    const prompts = `<p>Follow us on Telegram, Facebook, Instagram, YouTube and X for the latest news and updates.</p><p>The best of the Courier, delivered to your inbox every morning. <a href="/newsletters">Sign up</a></p>`;
    const mention = `<p>Residents who want to hear about the works before they start can join the mailing list, the council's own newsletter said.</p>`;
    const { markdown } = markdownOf(newsPage(withEnd(`${prompts}${mention}`), { head: articleHead }));
    expectOnly(
      markdown,
      ['Paragraph 5 of the report', "the council's own newsletter said"],
      ['Follow us on Telegram', 'delivered to your inbox'],
    );
  });
});
