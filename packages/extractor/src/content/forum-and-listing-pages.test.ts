/** extractMainContent on forum threads, product pages and listings. */
import { describe, expect, it } from 'vitest';

import { extract, page, prose } from './__fixtures__/synthetic-page.js';

describe('extractMainContent: forums', () => {
  const posts = Array.from(
    { length: 5 },
    (_, i) =>
      `<div class="post" id="p${i}"><div class="author"><a href="/u/${i}">user${i}</a> <span>Mar ${i + 1}, 2026</span></div><div class="message">${prose(`reply${i}`, i === 0 ? 3 : 1)}</div></div>`,
  ).join('');
  const thread = page(
    `<div class="breadcrumbs"><a href="/">Forum</a> › <a href="/f/1">Gardening</a></div><div class="thread"><h1>Best soil for tomatoes?</h1>${posts}</div><div class="pagination"><a href="?p=1">1</a><a href="?p=2">2</a><a href="?p=3">Next</a></div>`,
  );

  it('keeps every post of the thread, with authors', () => {
    const { text } = extract(thread);
    for (let i = 0; i < 5; i++) expect(text).toContain(`reply${i} paragraph 1`);
    expect(text).toContain('user3');
    expect(text).toContain('Best soil for tomatoes?');
  });

  it('keeps the replies when every post of the thread names its body post-content and the first one is long', () => {
    const replies = Array.from(
      { length: 3 },
      (_, i) =>
        `<div class="post" id="r${i}"><div class="author"><a href="/u/${i}">user${i + 1}</a></div><div class="post-content">${prose(`answer${i}`, 1)}</div></div>`,
    ).join('');
    const { text } = extract(
      page(
        `<div class="thread"><h1>Best soil for tomatoes?</h1><div class="post" id="op"><div class="author"><a href="/u/0">user0</a></div><div class="post-content">${prose('question', 6)}</div></div>${replies}</div>`,
      ),
    );
    expect(text).toContain('question paragraph 6');
    for (let i = 0; i < 3; i++) expect(text).toContain(`answer${i} paragraph 1`);
  });

  it('drops breadcrumbs, pagination and site chrome', () => {
    const { text } = extract(thread);
    expect(text).not.toContain('Gardening');
    expect(text).not.toContain('Next');
    expect(text).not.toContain('About us');
  });

  it('drops per-post chrome: poster rank and statistics, reactions, signatures, "Click to expand..."', () => {
    const post = (i: number): string =>
      `<article class="message message--post"><section class="message-user"><h4><a href="/u/${i}">poster${i}</a></h4><h5 class="userTitle message-userTitle">Well-known member</h5><div class="message-userExtras"><dl><dt>Joined</dt><dd>Jan 1, 2020</dd></dl><dl><dt>Messages</dt><dd>1,234</dd></dl></div><div class="author_statistics">Threads: 23</div></section><div class="message-content"><blockquote>quoted words<div class="bbCodeBlock-expandLink"><a href="#">Click to expand...</a></div></blockquote>${prose(`post${i}`, 2)}<div class="message-signature">My rig: a very fast computer, with many parts.</div></div><footer><div class="reactionsBar">Reactions: someone and 3 others</div></footer></article>`;
    const { text } = extract(page(`<div class="block-body">${[0, 1, 2, 3].map(post).join('')}</div>`));
    for (let i = 0; i < 4; i++) {
      expect(text).toContain(`post${i} paragraph 2`);
      expect(text).toContain(`poster${i}`);
    }
    for (const gone of [
      'Well-known member',
      'Joined',
      'Messages',
      'Threads: 23',
      'Reactions:',
      'My rig',
      'Click to expand',
    ]) {
      expect(text).not.toContain(gone);
    }
  });

  it('keeps a discussion made of comments when the page has little else', () => {
    const comments = Array.from({ length: 4 }, (_, i) => `<div class="comment">${prose(`comment${i}`, 1)}</div>`).join(
      '',
    );
    const { text } = extract(
      page(
        `<div class="link-post"><a href="https://ext.test/x">An interesting link</a></div><div class="comments">${comments}</div>`,
      ),
    );
    for (let i = 0; i < 4; i++) expect(text).toContain(`comment${i} paragraph 1`);
  });

  it('keeps the nested replies of a threaded discussion (a reply list inside the kept comment section)', () => {
    // a link aggregator's story page: every comment's replies sit in a nested `ol.comments` inside its `li`
    const comment = (id: string, depth: number): string => {
      const replies =
        depth < 2 ? `<ol class="comments">${[1, 2].map((k) => comment(`${id}.${k}`, depth + 1)).join('')}</ol>` : '';
      return `<li class="comments_subtree"><div class="comment" id="c_${id.replace(/\./g, '_')}"><div class="voters"><a class="upvoter" href="/login">${depth + 3}</a></div><div class="details"><div class="byline"><a href="/~user${id}">user${id}</a> <span title="2024-08-27">1 year ago</span> | <a href="/c/${id}">link</a> | <a href="/login">reply</a></div><div class="comment_text">${prose(`comment ${id}`, depth === 0 ? 2 : 1)}</div></div></div>${replies}</li>`;
    };
    const { text } = extract(
      page(
        `<div id="inside"><ol class="stories"><li class="story"><div class="details"><span class="link h-cite"><a class="u-url" href="https://ext.test/goals">Project goals for 2024</a></span> <a class="tag" href="/t/rust">rust</a> <div class="byline">via <a href="/~poster">poster</a> 1 year ago | 17 comments</div></div></li></ol>
        <ol class="comments comments1"><li class="comments_subtree" id="story_comments"><form class="comment_form_container" action="/comments"><textarea name="comment"></textarea><button>Post</button></form><ol class="comments">${[1, 2, 3].map((i) => comment(String(i), 0)).join('')}</ol></li></ol></div>`,
      ),
    );
    for (const id of ['1', '2.1', '2.2.1', '3.2', '3.2.2']) expect(text).toContain(`comment ${id} paragraph 1`);
    expect(text).not.toContain('Popular posts');
  });

  it("keeps a thread whose posts sit in `#comments` beside a consent manager's long policy text", () => {
    // forum software names the posts' container `comments`; the cookie preference centre's purposes are not the
    // page's own text, so they must not count as the prose that would make the posts a mere comment section
    const purposes = ['Strictly necessary', 'Performance', 'Functional', 'Targeting', 'Social media']
      .map(
        (name, i) =>
          `<section class="ot-cat-grp"><h4 class="ot-cat-header">${name} cookies</h4><div class="ot-category-desc">${prose(`purpose${i}`, 3)}</div><div class="ot-tgl"><input type="checkbox" id="ot-group-${i}"><label for="ot-group-${i}">${name}</label></div></section>`,
      )
      .join('');
    const consent = `<div id="onetrust-consent-sdk"><div id="onetrust-banner-sdk" class="otFlat"><p id="onetrust-policy-text">We use cookies to personalise content and ads. <a href="/privacy">Cookie notice</a></p><button id="onetrust-accept-btn-handler">Accept all</button></div><div id="onetrust-pc-sdk" class="otPcCenter ot-hide" role="region"><div role="dialog" aria-label="Preference center"><div id="ot-pc-content" class="ot-pc-scrollbar"><h2 id="ot-pc-title">Privacy preference center</h2>${purposes}</div><button class="save-preference-btn-handler">Confirm my choices</button></div></div></div>`;
    const post = (i: number): string =>
      `<article class="cPost ipsBox ipsComment" id="elComment_${i}"><aside class="cAuthorPane"><h3 class="cAuthorPane_author"><a href="/profile/${i}">member${i}</a></h3><ul class="cAuthorPane_info"><li>Members</li><li>${10 + i} posts</li></ul></aside><div class="ipsColumn"><div class="ipsComment_meta"><time datetime="2024-05-0${i + 1}">May ${i + 1}, 2024</time></div><div class="cPost_contentWrap" data-role="commentContent">${prose(`post${i}`, 1)}</div></div></article>`;
    const { text } = extract(
      page(
        `<div class="ipsLayout_container"><div class="ipsPageHeader"><h1 class="ipsType_pageTitle">New case: first impressions</h1></div><div class="cTopic ipsClear" id="comments" data-controller="core.front.core.commentFeed">${[0, 1, 2].map(post).join('')}</div></div>`,
        { after: consent },
      ),
    );
    for (let i = 0; i < 3; i++) expect(text).toContain(`post${i} paragraph 1`);
    expect(text).not.toContain('purpose1 paragraph');
  });

  it("drops a thread's counters (12 likes, 3 replies, Views: 1.2k, Posts: 340), keeps the posts", () => {
    const post = (i: number): string =>
      `<div class="topic-post" id="post_${i}"><div class="topic-meta-data"><span class="names"><a href="/u/member${i}">member${i}</a></span> <span class="post-infos"><span>Posts: ${340 + i}</span></span> <a class="post-date" href="/t/1/${i}">Apr ${i + 1}</a></div><div class="cooked">${prose(`post${i}`, 1)}</div><section class="post-menu-area"><span class="like-count">${i + 2} likes</span> <span>${i} replies</span></section></div>`;
    const { text } = extract(
      page(
        `<div id="main-outlet"><h1 class="fancy-title">Which telescope for a beginner?</h1><ul class="topic-map"><li><span>1.2k views</span></li><li><span>Replies: 4</span></li></ul>${[0, 1, 2, 3].map(post).join('')}</div>`,
      ),
    );
    for (let i = 0; i < 4; i++) expect(text).toContain(`post${i} paragraph 1`);
    expect(text).toContain('member2');
    for (const gone of ['3 likes', '2 replies', '1.2k views', 'Replies: 4', 'Posts: 341']) {
      expect(text).not.toContain(gone);
    }
  });

  it("drops a thread's post numbers (#3), avatar initials, badges (Original Poster) and quote and code toggles", () => {
    const post = (i: number): string =>
      `<article class="message message--post" id="post-${i}"><div class="message-avatar"><a href="/members/member${i}.${i}/" class="avatar avatar--m avatar--default"><span class="avatar-u${i}-m">Z</span></a></div><div class="message-userDetails"><h4 class="message-name"><a href="/members/member${i}.${i}/">member${i}</a></h4>${i === 0 ? '' : '<div class="message-userTitle">Well-known member</div>'}</div><div class="message-main"><header class="message-attribution"><ul class="listInline"><li><a href="/threads/soil.1/post-${i}"><time>Mar ${i + 1}, 2026</time></a></li></ul><ul class="message-attribution-opposite"><li><a href="/threads/soil.1/post-${i}">#${i + 1}</a></li></ul></header>${i === 2 ? '<span class="badge">Original Poster</span>' : ''}<div class="message-body"><blockquote class="bbCodeBlock--quote"><div class="bbCodeBlock-title">member0 said:</div><div class="bbCodeBlock-content">Which soil do you use for tomatoes in pots?</div><div class="bbCodeBlock-expandLink"><a role="button">Click to shrink...</a></div></blockquote>${prose(`post${i}`, 1)}<dl class="codebox"><dt>Code: <a href="#">Select all</a></dt><dd><code>ph = 6.5</code></dd></dl></div></div></article>`;
    const { text } = extract(
      page(
        `<div class="p-body-main"><h1>Best soil for tomatoes?</h1><div class="block-body">${[0, 1, 2, 3].map(post).join('')}</div></div>`,
      ),
    );
    for (let i = 0; i < 4; i++) expect(text).toContain(`post${i} paragraph 1`);
    expect(text).toContain('ph = 6.5');
    expect(text).toContain('Mar 3, 2026');
    for (const gone of ['#2', '#4', 'Original Poster', 'Click to shrink', 'Select all'])
      expect(text).not.toContain(gone);
    expect(text).not.toContain('Z');
  });

  it('keeps the rank numbers of a bestseller list (#1, #2: not linked)', () => {
    const items = Array.from(
      { length: 6 },
      (_, i) =>
        `<li class="zg-item"><span class="zg-badge">#${i + 1}</span><a href="/dp/${i}">Stoneware mug number ${i}, speckled glaze, 350 ml</a><span class="price">$${20 + i}.00</span></li>`,
    ).join('');
    const { text } = extract(
      page(
        `<div class="bestsellers"><h1>Best sellers in Kitchen</h1><p>Our most popular products based on sales. Updated hourly.</p><ol>${items}</ol></div>`,
      ),
    );
    for (const kept of ['#1', '#6', 'Stoneware mug number 5']) expect(text).toContain(kept);
  });

  it("drops a thread's edit and membership labels (Last edited …, Join Date: …) and Add a comment, keeps the posts", () => {
    const post = (i: number): string =>
      `<article class="message message--post" id="post-${i}"><div class="message-cell--user"><a class="username" href="/members/poster${i}">poster${i}</a><dl class="pairs"><dt>Join Date: Aug 200${i}</dt></dl></div><div class="message-cell--main"><div class="bbWrapper">${prose(`post${i}`, 1)}</div><div class="message-lastEdit">Last edited by a moderator: Jul ${i + 3}, 2024</div><div class="js-comments"><a class="js-add-comment" href="#">Add a comment</a></div></div></article>`;
    const { text } = extract(
      page(
        `<div class="p-body-main"><h1 class="p-title-value">Messages still taking up space after disabling sync</h1><div class="block-body js-replyNewMessageContainer">${[0, 1, 2, 3].map(post).join('')}</div></div>`,
      ),
    );
    for (let i = 0; i < 4; i++) expect(text).toContain(`post${i} paragraph 1`);
    expect(text).toContain('poster2');
    for (const gone of ['Last edited', 'Join Date', 'Add a comment']) expect(text).not.toContain(gone);
  });

  it("drops phpBB's edit notice (… edited 3 times in total) and a poster's Registered: date, keeps the posts", () => {
    const post = (i: number): string =>
      `<div class="post bg${i % 2}" id="p${i}"><div class="inner"><dl class="postprofile"><dt><a href="./memberlist.php?u=${i}">poster${i}</a></dt><dd><strong>Registered:</strong> 2024-01-2${i}</dd></dl><div class="postbody"><div class="content">${prose(`post${i}`, 1)}</div><div class="notice">Last edited by <a href="./memberlist.php?u=${i}">poster${i}</a> on Tue Aug 27, 2019 10:0${i} pm, edited ${i + 1} times in total.</div></div></div></div>`;
    const { text } = extract(
      page(
        `<div id="page-body"><h2 class="topic-title">Boot loops after the kernel update</h2>${[0, 1, 2, 3].map(post).join('')}</div>`,
      ),
    );
    for (let i = 0; i < 4; i++) expect(text).toContain(`post${i} paragraph 1`);
    for (const gone of ['Last edited', 'in total', 'Registered']) expect(text).not.toContain(gone);
  });

  it('keeps the opening post above a long comment thread that stays', () => {
    const comments = Array.from(
      { length: 10 },
      (_, i) =>
        `<li class="comment depth-1" id="comment-${i}"><div class="comment-author vcard"><img alt="" src="/a/${i}.png"><cite class="fn">reader${i}</cite></div><div class="comment-meta"><a href="#comment-${i}">March ${i + 1}, 2024 at 9:1${i} am</a></div><div class="comment-body">${prose(`comment${i}`, 1)}</div><div class="reply"><a class="comment-reply-link" href="?replytocom=${i}">Reply</a></div></li>`,
    ).join('');
    const { text } = extract(
      page(
        `<div id="primary" class="site-main"><div class="post-wrap"><h1 class="entry-title">Show us your first sourdough</h1><div class="post-body">${prose('opening', 2)}</div></div><div id="comments" class="comments-area"><h2 class="comments-title">10 replies</h2><ol class="comment-list">${comments}</ol></div></div>`,
      ),
    );
    expect(text).toContain('opening paragraph 2');
    expect(text).toContain('comment9 paragraph 1');
  });

  it('keeps the question of a Q&A page above its long answers', () => {
    const answer = (i: number): string =>
      `<div id="answer-${i}" class="answer js-answer" itemprop="suggestedAnswer" itemscope itemtype="https://schema.org/Answer"><div class="post-layout"><div class="votecell"><div class="js-vote-count">${12 - i}</div></div><div class="answercell post-layout--right"><div class="s-prose js-post-body" itemprop="text">${prose(`answer${i}`, 3)}</div><div class="post-signature"><a href="/users/${i}">answerer${i}</a> <span class="reputation-score">1,${i}04</span></div></div></div></div>`;
    const html = page(
      `<div id="content"><div id="question-header"><h1 itemprop="name"><a href="/questions/442960">Keyboard shortcut to focus the file list?</a></h1></div><div id="mainbar" role="main"><div class="question js-question" id="question" itemprop="mainEntity" itemscope itemtype="https://schema.org/Question"><div class="post-layout"><div class="votecell"><div class="js-vote-count">57</div></div><div class="postcell"><div class="s-prose js-post-body" itemprop="text">${prose('question', 2)}</div><div class="post-taglist"><a class="post-tag" href="/tags/windows-7">windows-7</a> <a class="post-tag" href="/tags/keyboard-shortcuts">keyboard-shortcuts</a></div></div></div></div><div id="answers"><div id="answers-header"><h2>4 Answers</h2><div class="js-sort">Sorted by: <a href="?sort=votes">Highest score</a></div></div>${[0, 1, 2, 3].map(answer).join('')}</div></div></div>`,
    ).replace('<body>', '<body class="question-page" itemscope itemtype="https://schema.org/QAPage">');
    const { text } = extract(html);
    expect(text).toContain('question paragraph 2');
    for (let i = 0; i < 4; i++) expect(text).toContain(`answer${i} paragraph 3`);
    expect(text).not.toContain('Popular posts');
  });

  it("drops a Q&A page's prompts and labels (Sorted by, Explore related questions, Not the answer you're looking for?)", () => {
    const answer = (i: number): string =>
      `<div id="answer-${i}" class="answer js-answer"><div class="post-layout"><div class="votecell"><div class="js-vote-count">${9 - i}</div></div><div class="answercell"><div class="s-prose js-post-body">${prose(`answer${i}`, 2)}</div><div class="post-signature"><a href="/users/${i}">answerer${i}</a></div></div></div></div>`;
    const notice = `<div class="js-bottom-notice"><div class="d-flex fd-column"><p class="fs-body2 fw-bold">Start asking to get answers</p><p class="fs-body1">Find the answer to your question by asking.</p><a class="s-btn" href="/questions/ask">Ask question</a></div><div class="d-flex fd-column"><p class="fs-body2 fw-bold">Explore related questions</p><ul class="post-tag-list"><li><a class="post-tag" href="/tags/catering">catering</a></li><li><a class="post-tag" href="/tags/equipment">equipment</a></li></ul><p class="fs-body1">See similar questions with these tags.</p></div></div><h2 class="bottom-notice">Not the answer you're looking for? Browse other questions tagged <a href="/tags/catering">catering</a> or <a href="/questions/ask">ask your own question</a>.</h2><p>You must log in to answer this question.</p>`;
    const html = page(
      `<div id="content"><div id="question-header"><h1><a href="/questions/12068">Catering an event for the first time: how should I prepare?</a></h1></div><div id="mainbar"><div class="question" id="question"><div class="s-prose js-post-body">${prose('question', 2)}</div></div><div id="answers"><div id="answers-header"><h2>3 Answers</h2><div class="js-sort">Sorted by: <a href="?answertab=scoredesc#tab-top">Reset to default</a></div></div>${[0, 1, 2].map(answer).join('')}${notice}</div></div></div>`,
    );
    const { text } = extract(html);
    expect(text).toContain('question paragraph 2');
    for (let i = 0; i < 3; i++) expect(text).toContain(`answer${i} paragraph 2`);
    for (const gone of [
      'Sorted by',
      'Reset to default',
      'Start asking',
      'Find the answer to your question',
      'Explore related questions',
      'See similar questions',
      "Not the answer you're looking for",
      'You must log in',
    ]) {
      expect(text).not.toContain(gone);
    }
  });

  it('reads content served in <noscript> (forum crawler views)', () => {
    const { text } = extract(
      page(`<div id="app"></div><noscript><div class="topic">${prose('crawler', 3)}</div></noscript>`),
    );
    expect(text).toContain('crawler paragraph 2');
  });
});

describe('extractMainContent: products and listings', () => {
  it('keeps a product title, price, description and specs; drops cart buttons, reviews and upsells', () => {
    // reviews go when the page has substantial prose of its own (here a long description)
    const { text } = extract(
      page(`<div class="product-page"><div class="product-main"><h1>Trail Backpack 25L</h1><p class="price">$89.00</p>
        <button class="add-to-cart">Add to cart</button>
        ${prose('backpack', 15)}
        <table class="specs"><tr><th>Weight</th><td>1.1 kg</td></tr><tr><th>Volume</th><td>25 litres</td></tr></table></div>
        <div class="product-reviews"><h2>Customer reviews</h2>${prose('review', 2)}</div>
        <div class="recently-viewed"><h2>Recently viewed</h2><a href="/p/9">Camp Stove</a></div></div>`),
    );
    for (const kept of ['Trail Backpack 25L', '$89.00', 'backpack paragraph 3', '1.1 kg', '25 litres'])
      expect(text).toContain(kept);
    for (const dropped of ['Add to cart', 'Customer reviews', 'review paragraph', 'Camp Stove'])
      expect(text).not.toContain(dropped);
  });

  it('drops customer reviews and the legal disclaimer under a short product description', () => {
    const { text } = extract(
      page(`<div class="product-page"><div class="product-main"><h1>Earbuds Pro</h1><p class="price">$199.00</p>
        ${prose('earbuds', 4)}</div>
        <div class="global-reviews-content"><h2>Top reviews</h2>${prose('review', 8)}</div>
        <div class="common-bottom-disclaimer"><ol>${Array.from({ length: 6 }, (_, i) => `<li>Disclaimer ${i}: an account login may be required to use certain features, and results vary by region.</li>`).join('')}</ol></div></div>`),
    );
    expect(text).toContain('earbuds paragraph 4');
    expect(text).not.toContain('review paragraph');
    expect(text).not.toContain('Disclaimer 2');
  });

  it('keeps every item of a listing of links, drops the filter sidebar', () => {
    const items = Array.from(
      { length: 12 },
      (_, i) =>
        `<li class="card"><a href="/item/${i}">Product number ${i} with a long name</a><span class="price">$${10 + i}.99</span></li>`,
    ).join('');
    const { text } = extract(
      page(
        `<div class="category"><h1>Desk accessories</h1><p>Everything for a tidy desk.</p><ul class="grid">${items}</ul></div>`,
        {
          before: `<div class="filters sidebar"><h3>Filter by brand</h3><a href="?b=1">Acme</a><a href="?b=2">Globex</a></div>`,
        },
      ),
    );
    for (let i = 0; i < 12; i++) expect(text).toContain(`Product number ${i} with a long name`);
    expect(text).toContain('$21.99');
    expect(text).toContain('Desk accessories');
    expect(text).not.toContain('Filter by brand');
  });

  it('drops a trailing grid of teaser cards after an article, keeps FAQ questions and listings of cards', () => {
    const card = (i: number, href: string): string =>
      `<div class="card"><h3><a href="${href}">Another story number ${i} worth reading</a></h3><span>Dec 19, 2025</span></div>`;
    const faq = [1, 2, 3]
      .map(
        (i) =>
          `<div><h3><a href="#">Question ${i} about the topic?</a></h3><p>Answer ${i}, in a full sentence.</p></div>`,
      )
      .join('');
    const { text } = extract(
      page(
        `<article>${prose('story', 12)}<div class="faq">${faq}</div><div class="grid">${[1, 2, 3, 4].map((i) => card(i, `/s/${i}`)).join('')}</div></article>`,
      ),
    );
    expect(text).toContain('story paragraph 12');
    expect(text).toContain('Answer 2, in a full sentence.');
    expect(text).not.toContain('Another story number 3');
    const listing = extract(
      page(
        `<main><h1>Stories</h1><p>All our stories.</p><div class="grid">${Array.from({ length: 12 }, (_, i) => card(i, `/s/${i}`)).join('')}</div></main>`,
      ),
    );
    expect(listing.text).toContain('Another story number 7');
  });

  it('drops a short link list inside an article, keeps an index made of many short link lists', () => {
    const links = (letter: string, n: number): string =>
      `<ul>${Array.from({ length: n }, (_, i) => `<li><a href="/w/${letter}${i}">${letter}-lang ${i}</a></li>`).join('')}</ul>`;
    const article = extract(page(`<article>${prose('essay', 6)}<div class="tags">${links('tag', 4)}</div></article>`));
    expect(article.text).toContain('essay paragraph 6');
    expect(article.text).not.toContain('tag-lang 2');
    const index = extract(
      page(
        `<main><h1>List of languages</h1><p>This is an index to notable languages, in current or historical use.</p>${['A', 'B', 'C', 'D', 'E'].map((l) => `<h2>${l}</h2>${links(l, 8)}`).join('')}</main>`,
      ),
    );
    expect(index.text).toContain('C-lang 5');
    expect(index.text).toContain('E-lang 7');
  });

  it('keeps a link-list page (an index of entries) rather than only its intro', () => {
    const entries = Array.from({ length: 40 }, (_, i) => `<li><a href="/wiki/L${i}">Language ${i}</a></li>`).join('');
    const { text } = extract(
      page(
        `<div class="content"><p>This is an index of notable languages, in current or historical use.</p><ul>${entries}</ul></div>`,
      ),
    );
    expect(text).toContain('Language 0');
    expect(text).toContain('Language 39');
  });

  it("keeps an index made of several link lists without its items' buttons and labels", () => {
    // a job board grouped by day: each group is a short list of links, together they are the page
    const day = (name: string, d: number): string =>
      `<section class="jobs-group"><h2 class="group-title">${name}</h2><ul class="jobs">${[0, 1, 2, 3]
        .map(
          (i) =>
            `<li class="job-card"><a class="job-title" href="/jobs/${d}${i}">Rust engineer ${d}${i}</a> <span class="company">Acme</span> <a class="btn btn-apply" href="/jobs/${d}${i}/apply">Apply now</a> <button class="save-job" type="button">Save</button></li>`,
        )
        .join('')}</ul></section>`;
    const { text } = extract(
      page(
        `<main class="job-board"><h1>Remote software jobs</h1><p class="intro">Hand-picked remote roles, updated daily.</p><form class="filters" role="search"><input name="q"><select name="type"><option>Full-time</option></select><button>Search</button></form>${['Today', 'Yesterday', 'This week', 'Last week'].map(day).join('')}<nav class="pagination"><a href="?page=2">Next page</a></nav></main>`,
      ),
    );
    expect(text).toContain('Rust engineer 00');
    expect(text).toContain('Rust engineer 33');
    expect(text).not.toContain('Apply now');
    expect(text).not.toContain('Save');
  });
});
