/** extractMainContent on pages whose items carry their own <header>: a teaser card's or a post's title block. */
import { describe, expect, it } from 'vitest';

import { extract, page, prose } from './__fixtures__/synthetic-page.js';

const stories = [
  'Beats Solo 4 and Solo Buds both gain exclusive color options',
  'Hands on: AirPods Pro 3 live translation and heart rate monitoring',
  'Studio Pro, Solo Buds and Solo 4 could receive new colors',
  'New firmware available for AirPods Max with USB-C port',
];

/** A news topic page's river card: image link, then the title and summary in the card's own header. */
const card = (title: string, i: number): string =>
  `<article class="river-article" aria-label="${title}"><a href="/articles/${i}" aria-hidden="true" tabindex="-1"><img src="/img/${i}.jpg" class="thumbnail" alt=""></a><header><h2><a href="/articles/${i}">${title}</a></h2><p class="river-desc">Story ${i}: the company has released an update that changes how the product works, according to a report on Tuesday.</p></header><div class="river-byline"><a href="/editors/${i}">Editor ${i}</a> <time>Oct ${i + 1}</time></div></article>`;

describe('extractMainContent: headers of items', () => {
  it('keeps the titles and summaries of a topic page’s story cards, held in each card’s header', () => {
    const { text } = extract(
      page(
        `<div class="site-container"><aside class="block"><div class="ad leaderboard" role="presentation"></div></aside><div class="col-main"><h1>headphones</h1><section class="col-main">${stories.map(card).join('')}</section><div class="pagination"><a href="/topic/headphones/page/2">Next Page</a></div></div></div>`,
      ),
    );
    for (const title of stories) expect(text).toContain(title);
    expect(text).toContain('Story 3: the company has released');
    expect(text).not.toContain('Next Page');
    expect(text).not.toContain('Ten tips for gardens');
  });

  it('still drops the page banner, and a post header without a heading (a forum post’s "Posted by" line)', () => {
    const post = (i: number): string =>
      `<article class="forum-post" id="post-${i}"><header class="meta">Posted by <a href="/users/${i}">member${i}</a> <span>Brooklyn, NY</span> <a href="#post-${i}">07/03/24 03:${10 + i} PM</a></header><div class="post-body">${prose(`post${i}`, 1)}</div></article>`;
    const { text } = extract(
      `<!doctype html><html><body><header class="banner"><h1><a href="/">Travel Forum</a></h1><a href="/login">Sign in</a></header><div class="topic"><h1>First trip to Japan</h1>${[0, 1, 2, 3].map(post).join('')}</div></body></html>`,
    );
    for (let i = 0; i < 4; i++) expect(text).toContain(`post${i} paragraph 1`);
    expect(text).not.toContain('Posted by');
    expect(text).not.toContain('Sign in');
  });

  it('keeps the heading and intro a landing page’s sections carry in their own header', () => {
    const section = (name: string, i: number): string =>
      `<section class="block block--features" id="s${i}"><header class="block__head"><p class="eyebrow">${name}</p><h2>${name} for every team</h2><p>Section ${i}: plan, track and ship work in one place, with views your whole team can share and trust.</p></header><div class="block__grid">${[
        0, 1, 2,
      ]
        .map(
          (k) =>
            `<div class="tile"><h3>Feature ${i}.${k}</h3><p>Tile ${i}.${k} explains one capability in a short sentence, with a comma.</p></div>`,
        )
        .join('')}</div></section>`;
    const { text } = extract(
      page(
        `<main id="main"><div class="hero"><h1>Work management, simplified</h1><p>Bring every project, process and request into one workspace that adapts to how you work.</p><a class="btn" href="/signup">Get started</a></div>${['Planning', 'Automation', 'Reporting'].map(section).join('')}</main>`,
      ),
    );
    expect(text).toContain('Section 2: plan, track and ship work');
    expect(text).toContain('Automation for every team');
    expect(text).toContain('Tile 1.2 explains');
    expect(text).not.toContain('Get started');
  });

  it('keeps the headings a theme wraps alone in a header before their paragraphs, not a linked banner title', () => {
    const myth = (name: string, i: number): string =>
      `<header class="section-head"><h2 class="subsection-title">${i + 1}. Myth: ${name}</h2></header>${prose(`myth${i}`, 2)}`;
    const myths = ['all fat is bad', 'frozen vegetables are less healthy', 'eggs are bad for your heart'];
    const { text } = extract(
      page(
        `<div class="page-wrap"><header class="brand"><h2><a href="/">Healthy Living</a></h2></header><div class="article-text"><h1>Nutrition myths, busted</h1>${prose('intro', 1)}${myths.map(myth).join('')}</div></div>`,
      ),
    );
    expect(text).toContain('2. Myth: frozen vegetables are less healthy');
    expect(text).toContain('myth2 paragraph 2');
    expect(text).not.toContain('Healthy Living');
  });

  it('keeps the titles a news front page sets as bare links in each story’s header, not a member’s name', () => {
    const headlines = [
      'Kernel release adds a faster event poll path',
      'Desktop shell update brings a new compositor option',
      'Agent framework reaches its sixteenth minor release',
      'Laptop support work continues on the free system',
    ];
    const story = (title: string, i: number): string =>
      `<article style="clear: both;"><header><a href="/news/story-${i}">${title}</a></header><a href="/news/story-${i}"><img src="/img/${i}.png" alt=""></a><div class="details">${i + 2} Hours Ago - <a href="/topic/${i}">Topic ${i}</a></div><p>Story ${i} summary: the maintainers merged the change this morning, and the next release will ship it to every user.</p></article>`;
    const { text } = extract(
      page(
        `<div id="main"><article class="full"><h1>Latest hardware reviews and open-source news</h1></article>${headlines.map(story).join('')}</div>`,
      ),
    );
    for (const title of headlines) expect(text).toContain(title);
    expect(text).toContain('Story 3 summary');
    const post = (i: number): string =>
      `<article class="forum-post"><header><a href="/users/${i}">member${i}</a></header><div class="post-body">${prose(`reply${i}`, 1)}</div></article>`;
    const thread = extract(
      page(`<div class="topic"><h1>Which sleeping bag for spring?</h1>${[0, 1, 2].map(post).join('')}</div>`),
    );
    expect(thread.text).toContain('reply2 paragraph 1');
    expect(thread.text).not.toContain('member1');
  });
});
