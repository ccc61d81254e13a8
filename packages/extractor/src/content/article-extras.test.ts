// What surrounds the body of news and blog articles on real pages, and is not the article: author boxes and the
// promotions a site puts after its posts. Built on the news site of news-pages.test.ts (cookie bar, menus, most-read
// box, footer).
import { describe, expect, it } from 'vitest';

import {
  articleHead,
  expectOnly,
  markdownOf,
  newsPage,
  shareIcons,
  site,
  storyEndingWith,
} from './__fixtures__/news-site.js';

const longStory = storyEndingWith('', 6);

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

  it('drops buying-guide labels: See price at …, See deal, Jump to the list, Article continues below', () => {
    const picks = Array.from(
      { length: 3 },
      (_, i) =>
        `<div class="pick"><h3>${i + 1}. Folding bike number ${i}</h3><p>Pick ${i}: it folds in ten seconds, fits under a desk and rides like a full-size bike on the cobbles of the old town.</p><div class="retailers"><a class="retailer" href="https://shop.example/b${i}">See price at Amazon</a> <a class="retailer" href="https://maker.example/b${i}">See price at Manufacturer site</a> <a href="https://deals.example/b${i}">See Deal</a></div></div>`,
    ).join('<div class="ad-slot"><span>Article continues below</span></div>');
    const { markdown } = markdownOf(
      newsPage(withEnd(`<p class="jump"><a href="#picks">Jump to the list</a></p><div id="picks">${picks}</div>`), {
        head: articleHead,
      }),
    );
    expectOnly(
      markdown,
      ['Pick 0: it folds in ten seconds', 'Pick 2:', 'Folding bike number 1'],
      ['See price at', 'See Deal', 'Jump to the list', 'Article continues below'],
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

  it('drops newsletter boxes: the pitch, the sign-up line and its consent fine print; keeps reporting on a newsletter', () => {
    const box = `<div class="newsletter-inline"><p class="nl-title">Subscribe to the Courier Daily, a free newsletter with the best of local news, sport and weather every weekday morning.</p><form action="/nl"><input type="email" placeholder="Your email"><button>Sign me up</button></form><p class="fine">By subscribing, you agree to our terms of service and privacy policy.</p></div>`;
    const inline = `<p>Sign up to our weekly round-up and get the best letters from readers sent straight to your inbox!</p><p>Love cycling? Our Pedal Power newsletter has every new route and event, delivered right to your inbox.</p>`;
    const reporting = `<p>The council said it would sign up every household to its new recycling text alerts by June, after only a third of residents subscribed to the email newsletter it launched last year.</p>`;
    const { markdown } = markdownOf(newsPage(withEnd(`${box}${inline}${reporting}`), { head: articleHead }));
    expectOnly(
      markdown,
      ['Paragraph 5 of the report', 'subscribed to the email newsletter it launched last year'],
      ['Courier Daily', 'By subscribing', 'weekly round-up', 'Pedal Power'],
    );
  });
});

/** A page builder's widget: every heading, text block and post grid sits alone in two wrappers. */
const widget = (kind: string, html: string): string =>
  `<div class="elementor-element elementor-widget elementor-widget-${kind}" data-element_type="widget"><div class="elementor-widget-container">${html}</div></div>`;

const builderPost = `<div class="elementor-section"><div class="elementor-container">${widget('heading', '<h1 class="elementor-heading-title">Can you sue a gym after an injury?</h1>')}${widget('post-info', '<ul><li>On Behalf of <a href="/about-us/">Harbour Law</a></li><li>Apr 21, 2025</li></ul>')}${widget(
  'text-editor',
  `<p>If someone is not careful at the gym, they may get hurt. Dropping equipment or straining too hard are common causes of injury, but there are also times when the gym itself is at fault.</p><p>Most waivers only protect the gym when its staff were negligent. Some try to rule out every claim, and courts in this state have refused to enforce the broadest of them.</p><p>Businesses also have to keep their premises safe, so that members do not slip on a wet floor or have a weight fall on them from a badly fixed rack. A gym that ignores a broken machine for weeks can be liable even when the member signed a waiver.</p><p>Whether a claim is worth bringing depends on the injury, on what the gym knew and on the wording of the contract. An attorney can read the waiver with you and tell you whether it would hold up.</p>`,
)}`;

const postCards = Array.from(
  { length: 3 },
  (_, i) =>
    `<article class="elementor-post elementor-grid-item post-${4180 + i} post type-post hentry"><div class="elementor-post__text"><h3 class="elementor-post__title"><a href="/blog/post-${i}/">Blog post number ${i}: what to do after a car accident in Riverside</a></h3><div class="elementor-post__meta-data"><span class="elementor-post-date">March ${20 + i}, 2025</span></div><div class="elementor-post__excerpt"><p>Excerpt ${i}: navigating an insurance claim can be overwhelming while you are still dealing with an injury, and the deadlines are strict.</p></div><a class="elementor-post__read-more" href="/blog/post-${i}/">Read More</a></div></article>`,
).join('');

describe('articles: sections after a heading that a page builder wraps alone', () => {
  it('drops a "Latest News" post grid after a short post, when the heading sits alone in its widget', () => {
    const page = `${builderPost}${widget('heading', '<h2 class="elementor-heading-title">Latest News</h2>')}${widget('posts', `<div class="elementor-posts-container elementor-grid">${postCards}</div>`)}</div></div>`;
    const { markdown } = markdownOf(newsPage(page, { head: articleHead }));
    expectOnly(
      markdown,
      ['Can you sue a gym after an injury?', 'Dropping equipment or straining too hard', 'broadest of them'],
      ['Latest News', 'Blog post number 0', 'Excerpt 2:', 'Read More'],
    );
  });

  it('stops the dropped section at the next wrapped heading of the same rank: the next section stays', () => {
    const related = `${widget('heading', '<h2>Related posts</h2>')}${widget('posts', `<ul>${Array.from({ length: 4 }, (_, i) => `<li><a href="/blog/r${i}/">Related post ${i} about injuries at work</a></li>`).join('')}</ul>`)}`;
    const next = `${widget('heading', '<h2>How to start a claim</h2>')}${widget('text-editor', '<p>Write down what happened while you still remember it, keep the receipts of every treatment, and ask the gym for a copy of the incident report before you sign anything.</p>')}`;
    const { markdown } = markdownOf(newsPage(`${builderPost}${related}${next}</div></div>`, { head: articleHead }));
    expectOnly(
      markdown,
      ['broadest of them', 'How to start a claim', 'copy of the incident report'],
      ['Related posts', 'Related post 2'],
    );
  });

  it('keeps the story after a wrapped "On this page" heading: its intro is prose, not a list of links', () => {
    const toc = `${widget('heading', '<h2>On this page</h2>')}`;
    const intro = `<div class="inline-container"><p>If you are trying to keep food costs down, planning your meals in advance can help you make healthier choices, save money and waste less. We planned a week of meals for one person at around 29 pounds, just under the national average according to <a href="https://stats.example/family-spending">official figures</a>.</p><p>Below are seven days of breakfasts, lunches, dinners and snacks, with a shopping list of everything you need.</p></div><div><h2>Monday</h2><p>Porridge with banana for breakfast, a bean salad for lunch and a vegetable curry for dinner.</p></div>`;
    const { markdown } = markdownOf(newsPage(`<div class="main">${toc}${intro}</div>`, { head: articleHead }));
    expectOnly(
      markdown,
      ['planning your meals in advance', 'seven days of breakfasts', 'vegetable curry'],
      ['On this page'],
    );
  });
});

/** Teaser cards of a news theme: thumbnail, section label, linked title, author, date and an excerpt. */
const newsCards = [
  'Salvation Army hands out 1,500 Christmas hampers',
  'Clerk of the House recalled from retirement',
  'Nine Mornings festival opens with a parade',
]
  .map(
    (title, i) =>
      `<article class="post"><div class="feature_image"><img src="/spinner.gif" alt="${title}"></div><div class="pre-content"><div class="category">Front Page</div><h4><a href="/front-page/2026/03/0${i + 1}/story-${i}/">${title}</a></h4><div class="author">Webmaster</div><div class="date">March ${i + 1}, 2026</div><div class="excerpt">Teaser ${i}: the story continues on the front page, with photographs from the day and comments from the organisers...</div></div></article>`,
  )
  .join('');

describe('articles: sections titled by a label rather than a heading', () => {
  it('drops an "ALSO IN THE NEWS" slot titled by a label div, after the story', () => {
    const label = `<div class="widget"><section class="widget_text_slot"><div class="template-content"><div class="mainColumnLabel"> ALSO IN THE NEWS</div></div></section></div>`;
    const slot = `<div class="widget_posts_slot"><section class="widget"><div class="template-content">${newsCards}</div></section></div>`;
    const { markdown } = markdownOf(newsPage(withEnd(`${label}${slot}`), { head: articleHead }));
    expectOnly(
      markdown,
      ['Paragraph 5 of the report', 'eleven collisions involving cyclists'],
      ['ALSO IN THE NEWS', 'Christmas hampers', 'Teaser 2:', 'Webmaster'],
    );
  });

  it('drops a "More from Local" row whose title is a paragraph with a title class', () => {
    const more = `<p class="block-title"><span>More from Local</span></p><div class="row">${newsCards}</div>`;
    const { markdown } = markdownOf(newsPage(withEnd(more), { head: articleHead }));
    expectOnly(markdown, ['Paragraph 5 of the report'], ['More from Local', 'Clerk of the House', 'Teaser 0:']);
  });

  it('keeps a live blog under a "Latest updates" label: prose, not a row of links', () => {
    const updates = Array.from(
      { length: 4 },
      (_, i) =>
        `<div class="update"><time>1${i}:05</time><p>Update ${i}: crews cleared another stretch of Harbour Road this morning, and the council expects the ferry terminal car park to reopen by the evening rush.</p></div>`,
    ).join('');
    const live = `<div class="live"><div class="live-label">Latest updates</div>${updates}</div>`;
    const { markdown } = markdownOf(newsPage(withEnd(live), { head: articleHead }));
    expectOnly(markdown, ['Paragraph 5 of the report', 'Update 0:', 'Update 3:']);
  });
});

describe('articles: reference lists after the text', () => {
  const citations = Array.from(
    { length: 5 },
    (_, i) =>
      `<li id="ref${i}">Author ${i} A, Second B. Cycling infrastructure and injury rates in small cities. J Transp Health. 20${10 + i};${i + 3}:101${i}. doi: 10.1016/j.jth.20${10 + i}.0${i}. <a href="https://doi.example/10.1016/j.jth.${i}">[DOI]</a> <a href="https://scholar.example/?q=${i}">[Google Scholar]</a></li>`,
  ).join('');

  it('drops a "References" list of citations and a "Footnotes" list with back links', () => {
    const sections = [
      `<h2>References</h2><ol class="ref-list">${citations}</ol>`,
      `<h3>Footnotes</h3><ol class="footnotes">${Array.from({ length: 3 }, (_, i) => `<li id="fn${i}"><p>Footnote ${i}: counted by the council's own survey in the spring, before the ferry timetable changed. <a href="#fnref${i}">↩︎</a></p></li>`).join('')}</ol>`,
      `<h2>Sources and further reading</h2><ul><li>Riverside Council, <em>Harbour Road transport study</em>, 2025.</li><li>National cycling survey, annual report, 2024.</li></ul>`,
      // a finance site's numbered sources under "Article Sources", after its fact-checking note
      `<h2>Article Sources</h2><p>All articles are reviewed and updated by our fact-checkers for accuracy. Visit our <a href="/editorial-policy">Editorial Policy</a> for more details.</p><ol>${citations}</ol>`,
    ];
    for (const section of sections) {
      const { markdown } = markdownOf(newsPage(withEnd(section), { head: articleHead }));
      expectOnly(
        markdown,
        ['Paragraph 5 of the report', 'eleven collisions involving cyclists'],
        ['References', 'Cycling infrastructure and injury rates', 'Footnote 1:', 'Harbour Road transport study'],
      );
    }
  });

  it('keeps the section after the reference list when a heading of the same rank opens it', () => {
    const page = withEnd(
      `<h2>References</h2><ol>${citations}</ol><h2>What happens next</h2><p>The committee meets again in April to choose a contractor, and residents can comment on the plans until the end of March.</p>`,
    );
    const { markdown } = markdownOf(newsPage(page, { head: articleHead }));
    expectOnly(markdown, ['What happens next', 'choose a contractor'], ['Cycling infrastructure and injury rates']);
  });

  it('keeps a page whose text is the reference list, and a body heading that only mentions sources', () => {
    const list = markdownOf(
      newsPage(
        `<div class="page"><h1>References</h1><p>Works cited in the 2025 transport study.</p><ol>${citations}</ol></div>`,
      ),
    );
    expectOnly(list.markdown, ['Cycling infrastructure and injury rates', 'Author 4 A']);
    const mention = markdownOf(
      newsPage(
        withEnd(
          '<h2>Sources of funding for the lanes</h2><p>Two thirds of the money comes from the national active travel fund, and the rest from the parking charges the council raised last year.</p>',
        ),
        { head: articleHead },
      ),
    );
    expectOnly(mention.markdown, ['Sources of funding for the lanes', 'national active travel fund']);
  });
});

describe('pages: in-text pointers to other stories and page-feedback sections', () => {
  it('drops "Related: <link>" and "Also read: <link>" lines between the paragraphs, keeps a paragraph with a link', () => {
    const pointers = `<p><strong>Related:</strong> <a href="/local/2026/02/11/mill-road-bus-lanes">Bus lanes on Mill Road open next month after two years of works</a></p><p><em>Also read: <a href="/local/2026/01/20/ferry-timetable">The new ferry timetable, explained in five charts</a></em></p><p><b>YOU MIGHT ALSO LIKE:</b> <a href="/opinion/cycling-city">Why Riverside could be the next cycling city</a></p>`;
    const prose = `<p>More: the council will publish the <a href="/docs/harbour-road">full design</a> on its website next week, with a map of every junction and the dates of the works.</p>`;
    const { markdown } = markdownOf(newsPage(withEnd(`${pointers}${prose}`), { head: articleHead }));
    expectOnly(
      markdown,
      ['Paragraph 5 of the report', 'with a map of every junction', 'full design'],
      ['Bus lanes on Mill Road', 'five charts', 'next cycling city', 'Related:', 'Also read'],
    );
  });

  it('drops a documentation page\'s "Help improve" and "Was this page helpful?" boxes after the text', () => {
    const docs = (end: string): string =>
      `<!doctype html><html><head><title>Using fetch | Web guide</title></head><body><div class="top-bar"><a href="/">Web guide</a> <a href="/docs/html">HTML</a> <a href="/docs/css">CSS</a> <a href="/docs/js">JavaScript</a> <a href="/blog">Blog</a> <a href="/login">Log in</a></div>
<div class="layout"><div class="sidebar-left"><ul><li><a href="/docs/fetch">Using fetch</a></li><li><a href="/docs/streams">Streams</a></li><li><a href="/docs/headers">Headers</a></li><li><a href="/docs/request">Request</a></li></ul></div>
<div class="main-page-content"><h1>Using the Fetch API</h1><p>The Fetch API provides a JavaScript interface for making HTTP requests and processing the responses. It is promise-based and replaces the older XMLHttpRequest interface in most code.</p>
<h2>Making a request</h2><p>To make a request, call fetch() with the URL of the resource. It returns a promise that resolves to a Response object as soon as the server replies with its headers.</p><pre><code>const response = await fetch("https://example.org/products.json");</code></pre>
<h2>Checking the status</h2><p>The promise does not reject on HTTP errors such as 404 or 500. Check the ok property of the response, or its status, before reading the body, and throw your own error when it is not what you expected.</p>
${end}</div></div><div class="site-bottom"><p>Portions of this content are licensed under CC-BY-SA 2.5. Visit the foundation's site for more.</p></div></body></html>`;
    const improve = `<section class="article-footer"><h2>Help improve the Web guide</h2><p>Was this page helpful to you? <button>Yes</button> <button>No</button></p><p><a href="/contribute">Learn how to contribute</a>. This page was last modified on Mar 9, 2026 by the guide's contributors.</p><p><a href="https://github.example/edit/fetch">View this page on GitHub</a> • <a href="https://github.example/issues/new">Report a problem with this content</a></p></section>`;
    const helpful = `<div class="feedback-box"><h3>Was this page helpful?</h3><p>Tell us what we can do better: your answer goes straight to the writers of this guide, who read every reply.</p><a href="/feedback?yes">Yes, thanks</a> <a href="/feedback?no">Not really</a></div>`;
    for (const end of [improve, helpful]) {
      const { markdown } = markdownOf(docs(end));
      expectOnly(
        markdown,
        ['# Using the Fetch API', 'Check the ok property', 'products.json'],
        [
          'Help improve',
          'Learn how to contribute',
          'last modified on',
          'Report a problem',
          'Was this page helpful',
          'who read every reply',
        ],
      );
    }
  });

  it('drops a newsletter issue\'s "How was this issue?" rating section, and keeps the sections after it', () => {
    const issue = `<!doctype html><html><head><title>The Weekly Ledger: cash flow in a slow quarter</title>${articleHead}</head><body>${site.cookie}<div class="navbar"><a href="/">The Weekly Ledger</a> <a href="/archive">Archive</a> <a href="/about">About</a> <a href="/subscribe">Subscribe</a></div>
<div class="single-post"><h1>The Weekly Ledger: cash flow in a slow quarter</h1><div class="post-meta">By Dana Reyes · Mar 9, 2026</div>${shareIcons}
<div class="body markup"><p>This week's issue is about cash flow: what to do when invoices come in slower than your bills go out, and how three small firms kept paying their staff through a quiet first quarter.</p>
<h2>What's on my mind</h2><p>The firms that did best had one thing in common. They knew, every Monday, how many weeks of costs they could cover with the cash in the bank, and they cut spending before the number fell under eight.</p><p>None of them used special software for it. A spreadsheet with two columns, money in and money out, was enough as long as someone updated it every week.</p>
<h2>How was this issue?</h2><p>Rate this week's newsletter with a single click. Your feedback helps me decide what to write next.</p><p><a href="/rate?5">Loved it</a> · <a href="/rate?3">It was fine</a> · <a href="/rate?1">Not for me</a></p>
<h2>Tools I used this week</h2><p>I rebuilt my own cash-flow sheet this week and added a column for invoices more than thirty days late, which turned out to be the number that worried me most.</p></div>
<div class="post-footer"><div class="like-button">Like</div><div class="comments-link"><a href="#comments">12 comments</a></div></div></div>${site.bottom}</body></html>`;
    const { markdown } = markdownOf(issue);
    expectOnly(
      markdown,
      [
        'weeks of costs they could cover',
        'two columns, money in and money out',
        'Tools I used this week',
        'more than thirty days late',
      ],
      ['How was this issue', 'Rate this week', 'Loved it'],
    );
  });
});
