// Main content of news pages built like real ones (see news-pages.test.ts): the head of the story (title, byline,
// labels, share bars, captions) and the story body inside a wider column.
import { describe, expect, it } from 'vitest';

import {
  articleHead,
  expectOnly,
  markdownOf,
  newsPage,
  shareIcons,
  site,
  story,
  storyEndingWith,
  teaserTitles,
} from './__fixtures__/news-site.js';

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
