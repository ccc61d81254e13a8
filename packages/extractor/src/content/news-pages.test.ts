// Main content of news and blog pages built like real ones: a cookie bar, a top strip, navigation, a breaking-news
// ticker, a share bar, a newsletter prompt, teaser grids with thumbnails and dates, a reader comment thread with
// avatars, Reply links and timestamps, and a footer with a customer-service blurb.
import { describe, expect, it } from 'vitest';

import { EMPTY_MAIN_WARNING, pageWarning } from '../page-warnings.js';
import {
  articleHead,
  expectOnly,
  markdownOf,
  newsPage,
  shareIcons,
  site,
  story,
  teaserTitles,
} from './__fixtures__/news-site.js';

const brief = `<div class="kicker"><a href="/local">Local</a></div>
<h1>Council approves new bike lanes on Harbour Road</h1>
<div class="meta">By <a href="/staff/jane-doe">Jane Doe</a> | 9 March 2026, 14:05</div>${shareIcons}
<div class="txt"><p>The city council voted 7 to 2 on Monday evening to add protected bike lanes along Harbour Road, between the ferry terminal and the old mill.</p>
<p>Work is expected to start in May and last about ten weeks. Parking on the north side of the road will be removed while the lanes are built, the council said.</p></div>`;

describe('news pages: a short article is still the answer', () => {
  it('returns a 60-word brief, its title and byline, not the header, menu, most-read list and footer', () => {
    const { markdown, warnings } = markdownOf(newsPage(brief));
    expectOnly(
      markdown,
      [
        '# Council approves new bike lanes on Harbour Road',
        'Jane Doe',
        'protected bike lanes along Harbour Road',
        'the council said.',
      ],
      [
        'Obituaries',
        "Today's e-paper",
        'Flood warning',
        'New bakery opens',
        'Customer service',
        'Missed a paper',
        'All rights reserved',
        'partners use cookies',
      ],
    );
    expect(warnings).toEqual([]);
  });

  it('returns a one-paragraph brief whose page footer holds far more text than the story', () => {
    const oneParagraph = `<h1>Rail line closed for repairs over Easter weekend</h1><div class="meta">By Sam Hill | 8 March 2026</div>
<div class="txt"><p>No trains will run between Riverside and Northgate from Good Friday to Easter Monday while engineers replace a bridge, the operator said on Sunday. Replacement buses will leave from the station forecourt every twenty minutes.</p></div>`;
    const longFooter = site.bottom.replace(
      '<p class="copy">',
      `<div class="cols"><div><h4>Our journalism</h4><p>The Courier has reported on Riverside and the valley since 1874. Our newsroom follows the editors' code of practice; if you think we got something wrong, write to the readers' editor, who answers every complaint within fourteen days.</p><p>We are a member of the independent press standards body. Corrections are published on page two of the printed paper and at the foot of the article online, with the date of the change.</p></div></div><p class="copy">`,
    );
    const html = newsPage(oneParagraph).replace(site.bottom, longFooter);
    const { markdown, warnings } = markdownOf(html);
    expectOnly(
      markdown,
      ['Replacement buses will leave', '# Rail line closed for repairs'],
      ["readers' editor", 'Corrections are published', 'Customer service', 'Most read'],
    );
    expect(warnings).toEqual([]);
  });

  it('returns a short blog post between page-builder sections of menu, newsletter prompt and address', () => {
    const post = `<div class="elementor-section top"><a href="/">Home</a> <a href="/shop">Shop</a> <a href="/recipes">Recipes</a> <a href="/about">About</a> <a href="/contact">Contact</a></div>
<div class="elementor-section"><div class="elementor-widget-container"><h1>Why we stopped selling plastic pots</h1><p class="post-date">March 2, 2026 · 2 min read</p>
<p>From this spring every plant we sell comes in a pot made of pressed coconut fibre. It breaks down in the soil within a season, so you can plant it as it is.</p>
<p>The new pots cost us a little more. We decided to keep our prices where they are and take the difference out of our own margin.</p></div></div>
<div class="elementor-section bottom"><p>Sign up for our newsletter and get 10% off your first order. We send one email a month, never more, and you can leave at any time.</p><p>Green Thumb Nursery, 12 Orchard Road, Hillside. Open every day from 9am to 5pm, except Christmas Day and New Year's Day.</p><a href="/privacy">Privacy</a> <a href="/terms">Terms</a></div>`;
    const { markdown, warnings } = markdownOf(
      `<!doctype html><html><head><title>Why we stopped selling plastic pots</title></head><body>${post}</body></html>`,
    );
    expectOnly(
      markdown,
      ['pressed coconut fibre', 'take the difference out of our own margin'],
      ['Recipes', 'get 10% off', 'Open every day', 'Privacy'],
    );
    expect(warnings).toEqual([]);
  });

  it('returns the whole page with a warning when no part of it is a candidate (a front page of equal teasers)', () => {
    const teasers = Array.from(
      { length: 8 },
      (_, i) =>
        `<div class="tile"><a href="/story/${i}"><img src="/t/${i}.jpg" alt=""></a><h3><a href="/story/${i}">Story number ${i} of the morning edition</a></h3><span class="date">9 March 2026</span></div>`,
    ).join('');
    const { markdown, warnings } = markdownOf(newsPage(`<div class="front">${teasers}</div>`, { side: '' }));
    expectOnly(markdown, ['Story number 0 of the morning edition', 'Story number 7 of the morning edition']);
    expect(warnings).toEqual([pageWarning('NO_MAIN_CONTENT')]);
  });

  it('cleans the whole page like a container when no part of it is a candidate: labels, buttons, prompts go', () => {
    const tiles = Array.from(
      { length: 8 },
      (_, i) =>
        `<div class="tile"><a href="/story/${i}"><img src="/t/${i}.jpg" alt=""></a><span class="label">${i % 3 === 0 ? 'Breaking news' : 'Live updates'}</span><h3><a href="/story/${i}">Story number ${i} of the morning edition</a></h3><span class="date">9 March 2026</span><a class="btn" href="/story/${i}">Read more</a></div>`,
    ).join('<div class="slot"><span>Advertisement</span></div>');
    const front = `<div class="front">${tiles}</div><p>Get the best of the Courier delivered to your inbox every morning.</p><div class="more"><button>Load more</button> <a href="/archive">Showing 8 of 2,140 results</a></div>`;
    const { markdown, warnings } = markdownOf(newsPage(front, { side: '' }));
    expectOnly(
      markdown,
      ['Story number 0 of the morning edition', 'Story number 7 of the morning edition'],
      [
        'Breaking news',
        'Live updates',
        'Advertisement',
        'Read more',
        'delivered to your inbox',
        'Load more',
        'Showing 8',
      ],
    );
    expect(warnings).toEqual([pageWarning('NO_MAIN_CONTENT')]);
  });

  it('returns a page of navigation only whole, with the warning', () => {
    const { markdown, warnings } = markdownOf(
      '<html><body><nav><a href="/a">Only navigation here</a> <a href="/b">and a second link</a></nav></body></html>',
    );
    expect(markdown).toContain('Only navigation here');
    expect(warnings).toEqual([pageWarning('NO_MAIN_CONTENT')]);
  });

  it('says so when the main content came out empty and the page is returned as it is', () => {
    const { markdown, warnings } = markdownOf(
      '<html><body><div id="app" style="display:none"><p>Rendered by the server, shown once the app starts.</p></div></body></html>',
    );
    expect(markdown).toContain('Rendered by the server');
    expect(warnings).toEqual([{ code: 'EMPTY_MAIN_CONTENT', message: EMPTY_MAIN_WARNING }]);
  });
});

/** A reader's comment as comment plugins render it: avatar, name, time, text, votes, Reply. */
function comment(i: number, text: string, cls = 'comment'): string {
  const names = ['Margaret T.', 'riverside_dad', 'Owen Price', 'K. Baptiste', 'northgate commuter', 'Lena'];
  return `<li class="${cls}" id="comment-${100 + i}"><div class="${cls}-body"><div class="${cls}-meta"><img class="avatar" src="/avatars/${i}.png" alt="" width="40"><b class="fn">${names[i % names.length]}</b> <a href="#comment-${100 + i}"><time datetime="2026-03-09T15:${10 + i}">${i + 1} hours ago</time></a></div><div class="${cls}-content"><p>${text}</p></div><div class="${cls}-actions"><span class="rating">Rating: ${i * 3 + 2} votes</span> <a class="${cls}-reply-link" href="?replytocom=${100 + i}">Reply</a> <a href="/report/${i}">Report</a></div></div></li>`;
}

const readerTexts = [
  'About time. I cycle this road every day and the lorries come within inches of you near the mill, it is terrifying.',
  'So where are we supposed to park now? Nobody at the council thought about the shops on the north side, as usual.',
  'Ten weeks of roadworks in the middle of the tourist season. Brilliant planning, well done everyone.',
  'The lanes on Mill Street made a real difference for my kids getting to school. Good decision, this one.',
  'Will the buses still stop outside the ferry terminal during the works? The article does not say.',
  'I would like to know what this costs and who is paying for it, before anyone starts celebrating.',
];

describe('news pages: reader comments are not the article', () => {
  it('drops a WordPress comment thread (avatars, times, Reply) longer than the story it follows', () => {
    const thread = `<div id="comments" class="comments-area"><h2 class="comments-title">${readerTexts.length * 3} thoughts on “Council approves new bike lanes on Harbour Road”</h2><ol class="comment-list">${Array.from({ length: 18 }, (_, i) => comment(i, readerTexts[i % readerTexts.length]!)).join('')}</ol><div id="respond" class="comment-respond"><h3>Leave a Reply</h3><form><label>Comment</label><textarea></textarea><button>Post Comment</button></form></div></div>`;
    const { markdown } = markdownOf(newsPage(`${story}${thread}`, { head: articleHead }));
    expectOnly(
      markdown,
      ['eleven collisions involving cyclists'],
      ['thoughts on', 'lorries come within inches', 'Rating: 5 votes', 'hours ago', 'Reply', 'Leave a Reply'],
    );
  });

  it('drops a news site comment section (class "comments") with a "Read all comments" link', () => {
    const section = `<section class="article-comments" id="comments"><h3>Comments (143)</h3><ul>${Array.from({ length: 12 }, (_, i) => comment(i, readerTexts[i % readerTexts.length]!, 'cmt')).join('')}</ul><a class="more" href="/local/2026/03/09/harbour-road-bike-lanes/comments">Read all comments</a></section>`;
    const { markdown } = markdownOf(newsPage(`${story}${section}`, { head: articleHead }));
    expectOnly(
      markdown,
      ['loading bay outside the market'],
      ['Comments (143)', 'Nobody at the council', 'Read all comments', 'Rating: 2 votes'],
    );
  });

  it('drops a short comment section under a "Reader comments" heading, whatever its class names', () => {
    const section = `<div class="rv-block"><h3>Reader comments (2)</h3><div class="rv-list">${[0, 1].map((i) => `<div class="rv-item"><img class="rv-avatar" src="/a/${i}.png" alt=""><span class="rv-name">Reader ${i}</span> <span class="rv-time">${i + 2} hours ago</span><p>${readerTexts[i]}</p><button>Reply</button></div>`).join('')}</div></div>`;
    const { markdown } = markdownOf(
      newsPage(story.replace('</article>', `${section}</article>`), { head: articleHead }),
    );
    expectOnly(markdown, ['eleven collisions involving cyclists'], ['Reader comments', 'lorries come within inches']);
  });

  it('keeps every post of a forum thread that shows its replies in a comment section', () => {
    const posts = Array.from(
      { length: 8 },
      (_, i) =>
        `<li class="DiscussionBoard-item" itemscope itemtype="http://schema.org/Comment"><div class="DiscussionBoard-header"><img src="/avatar/${i}.gif" alt=""><a href="/members/${i}">member${i}</a> <span>${i + 1} weeks ago</span></div><div class="DiscussionBoard-post" itemprop="text"><p>Reply ${i}: ${readerTexts[i % readerTexts.length]} I tried the same thing last year and it took a while before it paid off.</p></div><a href="#">Reply</a></li>`,
    ).join('');
    const thread = `<div class="ThreadView"><h1>Will this simple method work for a beginner?</h1><div class="ThreadView-first"><p>So could it be as simple as finding a product with medium demand and using the landing pages from the affiliate page, with cheap traffic? I have a small budget and want to start this month. Has anyone here done it this way, and how long did it take to see any sales?</p><p>Some background: I have built two small websites before, one for my brother's garage and one for a local choir, so the technical side does not scare me. What I do not know is whether paid traffic is worth it at this size, or whether I should write articles for a few months first and only then add the offers.</p><p>Any advice from people who started with less than a few hundred a month would be very welcome, including the mistakes you made.</p></div><div id="comments" class="DiscussionBoard"><ul class="DiscussionBoard-list">${posts}</ul></div></div>`;
    const { markdown } = markdownOf(newsPage(thread, { head: '<meta property="og:type" content="article">' }));
    expectOnly(markdown, [
      'could it be as simple as finding a product',
      ...Array.from({ length: 8 }, (_, i) => `Reply ${i}:`),
    ]);
  });

  it('keeps the comments of a page that does not say it is an article (a discussion page)', () => {
    const thread = `<div class="post"><h1>What is the best first telescope?</h1><p>I am new to astronomy and have about 300 to spend. Refractor or a small Dobsonian?</p></div><div id="comments" class="comments">${Array.from({ length: 5 }, (_, i) => `<div class="comment"><img class="avatar" src="/a/${i}.png" alt=""><b>stargazer${i}</b> <time>${i + 1} days ago</time><p>Answer ${i}: get an 8 inch Dobsonian, it shows far more than a refractor for the money, and it is easy to set up in the dark.</p><a href="#">Reply</a></div>`).join('')}</div>`;
    const { markdown } = markdownOf(newsPage(thread));
    expectOnly(
      markdown,
      Array.from({ length: 5 }, (_, i) => `Answer ${i}:`),
    );
  });
});

/** A teaser card as news sites render them: thumbnail, section label, linked title, date. */
function teaser(i: number, title: string): string {
  return `<div class="card"><a href="/local/2026/03/0${i % 9}/story-${i}"><img src="/thumbs/${i}.jpg" alt="" loading="lazy"></a><span class="label">Local</span><h3 class="card-title"><a href="/local/2026/03/0${i % 9}/story-${i}">${title}</a></h3><time datetime="2026-03-0${i % 9}">${(i % 9) + 1} March 2026</time></div>`;
}

describe('news pages: "More in", "Latest" and "Related" teaser blocks after the article', () => {
  const grid = (n: number, from = 0): string =>
    `<div class="cards">${Array.from({ length: n }, (_, i) => teaser(i + from, teaserTitles[(i + from) % teaserTitles.length]!)).join('')}</div>`;

  it('drops a "More in Local" grid of thumbnails, titles and dates inside the article container', () => {
    const html = newsPage(
      story.replace('</article>', `<section class="rail"><h2>More in Local</h2>${grid(4)}</section></article>`),
      { head: articleHead },
    );
    const { markdown } = markdownOf(html);
    expectOnly(
      markdown,
      ['eleven collisions involving cyclists'],
      ['More in Local', 'School board delays', 'Volunteers plant', '4 March 2026'],
    );
  });

  it('drops a "Latest" list of linked headlines with times after a short article', () => {
    const latest = `<div class="latest"><h3>Latest</h3><ul>${teaserTitles.map((t, i) => `<li><a href="/news/${i}">${t}</a> <span class="ago">${i + 1}h ago</span></li>`).join('')}</ul></div>`;
    const { markdown } = markdownOf(
      newsPage(story.replace('</article>', `${latest}</article>`), { head: articleHead }),
    );
    expectOnly(markdown, ['loading bay outside the market'], ['Latest', 'New bakery opens', '3h ago']);
  });

  it('drops a grid of teaser cards without a heading after a full-length article', () => {
    const more = Array.from(
      { length: 8 },
      (_, i) =>
        `<p>Paragraph ${i} of the full report: the council's transport committee heard from residents, shop owners and the ferry company over three meetings, and the final design moved the lanes away from the bus stops after objections from disabled passengers.</p>`,
    ).join('');
    const long = story.replace('</div></article>', `${more}</div>${grid(6)}</article>`);
    const { markdown } = markdownOf(newsPage(long, { head: articleHead }));
    expectOnly(
      markdown,
      ['Paragraph 7 of the full report', 'eleven collisions involving cyclists'],
      ['Harbour festival returns', 'Library extends opening hours'],
    );
  });

  it('drops "Related stories", "Editor\'s picks" and "Don\'t miss" blocks', () => {
    const blocks = ['Related stories', "Editor's picks", "Don't miss"]
      .map((h, k) => `<aside class="inline-box"><h4>${h}</h4>${grid(3, k * 2)}</aside>`)
      .join('');
    const { markdown } = markdownOf(
      newsPage(story.replace('</article>', `${blocks}</article>`), { head: articleHead }),
    );
    expectOnly(
      markdown,
      ['loading bay outside the market'],
      ['Related stories', "Editor's picks", "Don't miss", 'Rail line closed'],
    );
  });

  it('keeps a listing page made of the same teaser cards', () => {
    const listing = `<div class="section-front"><h1>Local news</h1><p>Everything happening in Riverside and the valley, updated through the day.</p>${grid(12)}</div>`;
    const { markdown } = markdownOf(newsPage(listing, { side: '' }));
    expectOnly(markdown, teaserTitles);
  });

  it("keeps a page's own <h1> whose whole text reads as a label (a live page's Live)", () => {
    const live = story.replace('Council approves new bike lanes on Harbour Road</h1>', 'Live</h1>');
    const { markdown } = markdownOf(newsPage(live, { side: '' }));
    expect(markdown).toMatch(/^# Live$/m);
    expect(markdown).toContain('The city council voted 7 to 2');
  });
});
