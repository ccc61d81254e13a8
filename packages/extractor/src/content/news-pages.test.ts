// Main content of news and blog pages built like real ones: a cookie bar, a top strip, navigation, a breaking-news
// ticker, a share bar, a newsletter prompt, teaser grids with thumbnails and dates, a reader comment thread with
// avatars, Reply links and timestamps, and a footer with a customer-service blurb.
import { describe, expect, it } from 'vitest';

import { EMPTY_MAIN_WARNING, WHOLE_PAGE_WARNING } from '../page.js';
import {
  articleHead,
  expectOnly,
  markdownOf,
  newsPage,
  shareIcons,
  site,
  story,
  storyEndingWith,
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
    expect(warnings).toEqual([WHOLE_PAGE_WARNING]);
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
    expect(warnings).toEqual([WHOLE_PAGE_WARNING]);
  });

  it('returns a page of navigation only whole, with the warning', () => {
    const { markdown, warnings } = markdownOf(
      '<html><body><nav><a href="/a">Only navigation here</a> <a href="/b">and a second link</a></nav></body></html>',
    );
    expect(markdown).toContain('Only navigation here');
    expect(warnings).toEqual([WHOLE_PAGE_WARNING]);
  });

  it('says so when the main content came out empty and the page is returned as it is', () => {
    const { markdown, warnings } = markdownOf(
      '<html><body><div id="app" style="display:none"><p>Rendered by the server, shown once the app starts.</p></div></body></html>',
    );
    expect(markdown).toContain('Rendered by the server');
    expect(warnings).toEqual([EMPTY_MAIN_WARNING]);
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

const teaserTitles = [
  'School board delays budget vote for the third time this year',
  'New bakery opens in the old post office on Market Square',
  'Harbour festival returns in June with a longer programme',
  'Rail line closed for repairs over the Easter weekend',
  'Volunteers plant four hundred trees along the river path',
  'Library extends opening hours after readers sign petition',
];

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
});

describe('news pages: bylines, datelines, share bars and labels around the title', () => {
  const header = `<div class="story-head"><span class="flag">Breaking news</span><h1>Council approves new bike lanes on Harbour Road</h1><div class="byline">By <a href="/staff/jane-doe">Jane Doe</a>, Transport reporter</div><div class="dateline"><time datetime="2026-03-09T14:05">9 March 2026, 14:05</time> <span class="reading-time">3 min read</span></div></div>`;
  const shareBar = `<div class="share-tools"><span>Share</span><a href="https://www.facebook.example/sharer/sharer.php?u=https%3A%2F%2Fcourier.example%2Fx">Facebook</a><a href="https://x.example/intent/tweet?url=https%3A%2F%2Fcourier.example%2Fx">X</a><a href="mailto:?subject=Bike%20lanes">Email</a><button>Copy link</button></div>`;
  const body = story.replace(/<h1>.*?<\/div>/, '');

  it('keeps the title, author and date, drops the "Breaking news" label and the reading time', () => {
    const { markdown } = markdownOf(
      newsPage(body.replace('<article class="story">', `<article class="story">${header}`), { head: articleHead }),
    );
    expectOnly(
      markdown,
      ['# Council approves new bike lanes on Harbour Road', 'Jane Doe', '9 March 2026, 14:05'],
      ['Breaking news', 'min read'],
    );
  });

  it('drops reading times written otherwise ("3 MIN. READ", "Reading time: 8 minutes") and "Hide all" toggles', () => {
    const head = header.replace('3 min read', '3 MIN. READ');
    const body2 = body.replace('<div class="txt">', '<div class="txt"><p class="rt">Reading time: 8 minutes</p>');
    const faq = `<div class="faq-bar"><span class="faq-toggle">Hide all</span></div><p>The lanes will be reviewed after a year, the council said in its closing statement on Monday night.</p>`;
    const { markdown } = markdownOf(
      newsPage(
        body2
          .replace('<article class="story">', `<article class="story">${head}`)
          .replace('</div></article>', `${faq}</div></article>`),
        {
          head: articleHead,
        },
      ),
    );
    expectOnly(markdown, ['Jane Doe', 'reviewed after a year'], ['MIN. READ', 'Reading time', 'Hide all']);
  });

  it('drops "Read the review" and "See the rating" links under the picks of a guide', () => {
    const picks = ['north route', 'harbour route', 'mill route']
      .map(
        (r, i) =>
          `<h3>${i + 1}. The ${r}</h3><p>Pick ${i} of the guide: the ${r} is the one residents asked for at the meetings.</p><p><a href="/reviews/${i}">Read the Review</a></p><p><a href="https://ratings.example/${i}">See the rating</a>.</p>`,
      )
      .join('');
    const { markdown } = markdownOf(newsPage(storyEndingWith(picks), { head: articleHead }));
    expectOnly(markdown, ['Pick 0 of the guide', 'Pick 2 of the guide'], ['Read the Review', 'See the rating']);
  });

  it('drops a bare "Where to buy" section of shop links, keeps a heading that asks where to buy a thing', () => {
    const body = `<h2>Where to buy a bike for the new lanes</h2><p>Paragraph A of the story: the two bike shops on Mill Lane expect a busy spring.</p><h3>WHERE TO BUY</h3><ul><li><a href="https://shop-one.example/bikes">Shop One</a> · from £399</li><li><a href="https://shop-two.example/city">Shop Two</a> · from £429</li><li><a href="https://shop-three.example/c/bikes">Shop Three</a> · from £450</li></ul><h3>What happens next</h3><p>The lanes will be reviewed after a year, the council said in its closing statement on Monday night.</p>`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(body), { head: articleHead }));
    expectOnly(
      markdown,
      [
        'Where to buy a bike for the new lanes',
        'Paragraph A of the story',
        'What happens next',
        'reviewed after a year',
      ],
      ['WHERE TO BUY', 'Shop One', 'from £429'],
    );
  });

  it('drops share bars above and below the story, with their labels and buttons', () => {
    const html = newsPage(
      body
        .replace('<article class="story">', `<article class="story">${header}${shareBar}`)
        .replace('</article>', `${shareBar}</article>`),
      { head: articleHead },
    );
    const { markdown } = markdownOf(html);
    expectOnly(markdown, ['eleven collisions involving cyclists'], ['Facebook', 'Email', 'Copy link', 'Share']);
  });

  it('drops a row of share icons that has no text at all', () => {
    const { markdown } = markdownOf(
      newsPage(body.replace('<div class="txt">', `${header}${shareIcons}<div class="txt">`), { head: articleHead }),
    );
    expect(markdown).toContain('eleven collisions involving cyclists');
    expect(markdown).not.toMatch(/fb\.svg|x\.svg|mail\.svg|sharer/);
  });

  it('drops a newsletter prompt inside the story', () => {
    const prompt = `<div class="newsletter-signup"><h3>Get the morning briefing</h3><p>The day's local news in your inbox at 7am, free. Sign up now.</p><form action="/subscribe"><input type="email" placeholder="Your email"><button>Sign up</button></form></div>`;
    const { markdown } = markdownOf(
      newsPage(body.replace('<p>Councillor', `${prompt}<p>Councillor`), { head: articleHead }),
    );
    expectOnly(markdown, ['eleven collisions involving cyclists'], ['morning briefing', 'inbox at 7am']);
  });

  it('keeps a photo with its alt text, drops its caption and credit', () => {
    const photo = `<figure class="wp-block-image"><img src="/img/harbour-road.jpg" alt="Cyclists on Harbour Road near the ferry terminal"><figcaption>Cyclists on Harbour Road on Monday morning. Photo: Tom Reed / Courier</figcaption></figure>`;
    const { markdown } = markdownOf(
      newsPage(body.replace('<p>Councillor', `${photo}<p>Councillor`), { head: articleHead }),
    );
    expectOnly(
      markdown,
      ['![Cyclists on Harbour Road near the ferry terminal]', 'eleven collisions involving cyclists'],
      ['Photo: Tom Reed'],
    );
  });
});

describe('news pages: the story body inside a wider column', () => {
  const body = `<div class="entry-content"><p>The city council voted 7 to 2 on Monday evening to add protected bike lanes along Harbour Road, between the ferry terminal and the old mill.</p>
<p>Work is expected to start in May and last about ten weeks. Parking on the north side of the road will be removed while the lanes are built, the council said.</p>
<p>Councillor Amir Shah, who proposed the scheme, said the road had seen eleven collisions involving cyclists in three years. Shop owners asked for a loading bay outside the market, which the council agreed to study.</p>
<p>The ferry company welcomed the decision. Its passengers often cycle to the terminal, and a spokesperson said the company would add forty bike racks by the summer.</p>
<p>The transport committee heard from residents, shop owners and the ferry company over three meetings, and the final design moved the lanes away from the bus stops after objections from disabled passengers.</p>
<p>Two councillors voted against the scheme. They said the money would be better spent on the potholes of the valley roads, and that the loss of parking would hurt the shops at the market end of the road.</p></div>`;
  const popular = `<div class="widget"><div class="widget-title">Popular now</div><p><a href="/news/flood-warning">Did you know? The river has flooded the lower valley nine times since 1950, and this year could be the tenth</a></p><p><a href="/news/bakery">New bakery opens in the old post office, and the queue reached the end of Market Square on its first morning</a></p></div>`;
  const faq = `<div class="faq-block"><h3>Questions readers asked</h3><p>Why are the lanes protected? Because painted lanes on busy roads did not lower the number of collisions in the towns the council studied.</p><p>Will the buses be slower? The council's model says no: the bus stops move to islands beside the lanes, and the buses keep their own lane.</p><p>Who pays for it? A national fund for active travel pays for most of the work; the council adds the cost of the new kerbs at the market.</p></div>`;

  it('keeps the one article body (entry-content) and drops what the column holds beside it', () => {
    const column = `<article class="post"><div class="kicker"><a href="/local">Local</a></div><div class="headline-wrap"><p class="standfirst">Protected lanes between the ferry terminal and the old mill, work starts in May, says the council in a statement issued on Monday evening.</p></div>${shareIcons}${body}${popular}${faq}</article>`;
    // a page whose footer is a <footer>: the walk from the body reaches the article column
    const html = newsPage(column, { head: articleHead }).replace(site.bottom, `<footer>${site.bottom}</footer>`);
    const { markdown } = markdownOf(html);
    expectOnly(
      markdown,
      ['protected bike lanes along Harbour Road', 'forty bike racks by the summer'],
      ['Popular now', 'flooded the lower valley nine times', 'painted lanes on busy roads', 'Most read'],
    );
  });

  it('keeps the article body when small post excerpts (teaser cards) sit beside it', () => {
    const card = (i: number, title: string): string =>
      `<div class="card"><h3><a href="/news/${i}">${title}</a></h3><div class="post-content"><p>${title.split(' ').slice(0, 5).join(' ')}.</p></div></div>`;
    const column = `<article class="post"><div class="headline-wrap"><p class="standfirst">Protected lanes between the ferry terminal and the old mill, work starts in May, says the council in a statement issued on Monday evening.</p></div>${body}${faq}<div class="more">${card(1, teaserTitles[0]!)}${card(2, teaserTitles[1]!)}</div></article>`;
    const html = newsPage(column, { head: articleHead }).replace(site.bottom, `<footer>${site.bottom}</footer>`);
    const { markdown } = markdownOf(html);
    expectOnly(
      markdown,
      ['protected bike lanes along Harbour Road', 'the market end of the road'],
      ['painted lanes on busy roads', teaserTitles[0]!, teaserTitles[1]!],
    );
  });

  it("keeps a page builder's post-content widget (elementor-widget-theme-post-content) without the widgets around it", () => {
    const widget = (type: string, inner: string): string =>
      `<div class="elementor-element elementor-widget elementor-widget-${type}"><div class="elementor-widget-container">${inner}</div></div>`;
    const column = `<div class="elementor-section"><div class="elementor-column">${widget('theme-post-title', '<h1 class="elementor-heading-title">Council approves new bike lanes on Harbour Road</h1>')}${widget('post-info', '<ul><li>Jane Doe</li><li>9 March 2026</li></ul>')}${widget('theme-post-content', body.replace('<div class="entry-content">', '<div>'))}${widget('text-editor', '<p>Our newsroom is funded by readers like you. For the price of a coffee a month you keep local reporting alive in Riverside and the valley, and you get every story a day early.</p><p>Members also get the weekly transport briefing, with the agendas of the council committees and what was decided.</p>')}${widget('text-editor', faq)}</div></div>`;
    const html = newsPage(column, { head: articleHead }).replace(site.bottom, `<footer>${site.bottom}</footer>`);
    const { markdown } = markdownOf(html);
    expectOnly(
      markdown,
      ['protected bike lanes along Harbour Road', 'the market end of the road'],
      ['funded by readers like you', 'weekly transport briefing', 'painted lanes on busy roads'],
    );
  });

  it("keeps a site builder's rich-text post body (blog-rich-text) without the standfirst and box beside it", () => {
    const richBody = body.replace('<div class="entry-content">', '<div class="blog-rich-text w-richtext">');
    const column = `<div class="blog-post-wrapper"><div class="blog-hero"><p class="standfirst">Protected lanes between the ferry terminal and the old mill, work starts in May, says the council in a statement issued on Monday evening.</p></div>${richBody}${faq}</div>`;
    const html = newsPage(column, { head: articleHead }).replace(site.bottom, `<footer>${site.bottom}</footer>`);
    const { markdown } = markdownOf(html);
    expectOnly(
      markdown,
      ['protected bike lanes along Harbour Road', 'the market end of the road'],
      ['Protected lanes between the ferry terminal', 'painted lanes on busy roads'],
    );
  });

  it('keeps the whole column when the article body holds under half of its prose (an interview with a long box)', () => {
    const box = Array.from(
      { length: 6 },
      (_, i) =>
        `<p>Question ${i} from our readers, answered by the council's transport officer: how the lanes will be cleared of snow, who pays for the kerbs, and why the work cannot wait until the autumn, when the road is quieter.</p>`,
    ).join('');
    const column = `<div class="story-wrap"><h1>Council approves new bike lanes on Harbour Road</h1>${body}<div class="reader-questions">${box}</div></div>`;
    const { markdown } = markdownOf(newsPage(column, { head: articleHead }));
    expectOnly(markdown, ['forty bike racks by the summer', 'Question 5 from our readers', 'cleared of snow']);
  });

  it('keeps every card of a listing whose cards each hold a post-content excerpt', () => {
    const cards = teaserTitles
      .map(
        (t, i) =>
          `<div class="card"><h2><a href="/news/${i}">${t}</a></h2><div class="post-content"><p>${t}: the full story from our newsroom, with the reactions of residents and the council, and what happens next.</p></div></div>`,
      )
      .join('');
    const { markdown } = markdownOf(
      newsPage(`<div class="section-front"><h1>Local news</h1>${cards}</div>`, { side: '' }),
    );
    expectOnly(markdown, teaserTitles);
  });
});
