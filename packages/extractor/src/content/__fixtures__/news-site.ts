// A regional news site built like real ones, for the main-content tests of news and blog pages: a cookie bar, a top
// strip, navigation without nav/footer class names, a breaking-news ticker, a most-read box, share icons and a footer
// with a customer-service blurb.
import { expect } from 'vitest';

import { extractPage } from '../../page.js';
import type { ExtractionWarning } from '../../page-warnings.js';

export const URL = 'https://courier.example/local/2026/03/09/harbour-road-bike-lanes';

/** The markdown of `html` with `onlyMainContent`, and the warnings. */
export function markdownOf(html: string): { markdown: string; warnings: ExtractionWarning[] } {
  const out = extractPage(html, { url: URL, onlyMainContent: true, formats: { markdown: true } });
  return { markdown: out.markdown ?? '', warnings: out.warnings };
}

/** Asserts that `markdown` holds every text of `keep` and none of `drop`, naming the text that fails. */
export function expectOnly(markdown: string, keep: readonly string[], drop: readonly string[] = []): void {
  for (const text of keep) expect(markdown, `kept: ${text}`).toContain(text);
  for (const text of drop) expect(markdown, `dropped: ${text}`).not.toContain(text);
}

/** Site chrome of a regional news site, with class names that do not say "nav" or "footer" (as many sites do). */
export const site = {
  cookie: `<div class="cc-window cc-banner" role="dialog" aria-label="cookieconsent"><span class="cc-message">We and our 143 partners use cookies to personalise content and ads, to provide social media features and to analyse our traffic.</span><a class="cc-btn cc-allow" href="#">Accept all</a><a class="cc-btn" href="/privacy">Manage choices</a></div>`,
  top: `<div class="top-strip"><div class="wrap"><span class="today">Monday, 9 March 2026</span> <a href="/subscribe">Subscribe</a> <a href="/login">Log in</a> <a href="/epaper">Today's e-paper</a> <a href="/puzzles">Puzzles</a></div></div>`,
  brand: `<div class="brand-row"><a class="logo" href="/"><img src="/static/logo.png" alt="The Riverside Courier"></a><ul class="links"><li><a href="/news">News</a></li><li><a href="/local">Local</a></li><li><a href="/business">Business</a></li><li><a href="/sport">Sport</a></li><li><a href="/opinion">Opinion</a></li><li><a href="/lifestyle">Lifestyle</a></li><li><a href="/weather">Weather</a></li><li><a href="/obituaries">Obituaries</a></li><li><a href="/jobs">Jobs</a></li></ul></div>`,
  ticker: `<div class="ticker"><strong>Breaking news</strong> <a href="/news/flood-warning">Flood warning issued for the lower valley as the river keeps rising</a></div>`,
  mostRead: `<div class="col-side"><div class="box"><h3>Most read</h3><ol><li><a href="/a1">Flood warning issued for the lower valley</a></li><li><a href="/a2">New bakery opens in the old post office</a></li><li><a href="/a3">School board delays budget vote again</a></li><li><a href="/a4">Harbour festival returns in June with a longer programme</a></li><li><a href="/a5">Rail line closed for repairs over Easter weekend</a></li></ol></div><div class="box ad"><span>Advertisement</span><img src="/ads/300x250.gif" alt=""></div></div>`,
  bottom: `<div class="bottom"><div class="wrap"><div class="cols"><div><h4>Customer service</h4><p>Questions about your subscription or delivery? Our customer service team is available Monday to Friday, 8am to 6pm, on 0800 123 456 or by email. Missed a paper? Tell us before noon and we will deliver it the same day.</p></div><div><h4>About us</h4><ul><li><a href="/about">About the Courier</a></li><li><a href="/contact">Contact us</a></li><li><a href="/advertise">Advertise with us</a></li><li><a href="/careers">Careers</a></li><li><a href="/privacy">Privacy notice</a></li><li><a href="/terms">Terms and conditions</a></li></ul></div><div><h4>Follow us</h4><a href="https://facebook.example/courier">Facebook</a> <a href="https://instagram.example/courier">Instagram</a> <a href="https://x.example/courier">X</a></div></div><p class="copy">Copyright 2026 Riverside Media Group Ltd. All rights reserved. Registered in England and Wales, company number 01234567. Registered office: 1 Mill Lane, Riverside.</p></div></div>`,
};

export const shareIcons = `<div class="icons"><a href="https://facebook.example/sharer?u=x"><img src="/i/fb.svg" alt=""></a><a href="https://x.example/intent/post?url=x"><img src="/i/x.svg" alt=""></a><a href="https://wa.example/send?text=x"><img src="/i/wa.svg" alt=""></a><a href="mailto:?subject=Bike%20lanes"><img src="/i/mail.svg" alt=""></a></div>`;

/** What a news site declares in its head: og:type article and a NewsArticle. */
export const articleHead = `<meta property="og:type" content="article"><script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"Council approves new bike lanes on Harbour Road"}</script>`;

/** `article` in the main column of the news site, beside `side` (the most-read box by default). */
export function newsPage(article: string, { side = site.mostRead, head = '' } = {}): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Council approves new bike lanes | The Riverside Courier</title>${head}<script>window.dataLayer=[];</script></head>
<body class="single post-template">${site.cookie}${site.top}${site.brand}${site.ticker}
<div class="wrap"><div class="col-main">${article}</div>${side}</div>${site.bottom}<script src="/static/app.js"></script></body></html>`;
}

/** A three-paragraph story with its title and byline. */
export const story = `<article class="story"><h1>Council approves new bike lanes on Harbour Road</h1><div class="meta">By <a href="/staff/jane-doe">Jane Doe</a> | 9 March 2026, 14:05</div>
<div class="txt"><p>The city council voted 7 to 2 on Monday evening to add protected bike lanes along Harbour Road, between the ferry terminal and the old mill.</p>
<p>Work is expected to start in May and last about ten weeks. Parking on the north side of the road will be removed while the lanes are built, the council said.</p>
<p>Councillor Amir Shah, who proposed the scheme, said the road had seen eleven collisions involving cyclists in three years. Shop owners asked for a loading bay outside the market, which the council agreed to study.</p></div></article>`;

/**
 * The story with `count` more paragraphs of the council report in its body and `html` after them, at the end of the
 * body (where blog themes put author boxes, paywall breakers and appeals to the reader).
 */
export function storyEndingWith(html: string, count = 4): string {
  const more = Array.from(
    { length: count },
    (_, i) =>
      `<p>Paragraph ${i} of the report: the council's transport committee heard from residents, shop owners and the ferry company over three meetings, and the final design moved the lanes away from the bus stops.</p>`,
  ).join('');
  return story.replace('</div></article>', `${more}${html}</div></article>`);
}

/** Titles of other stories, for teaser cards. */
export const teaserTitles = [
  'School board delays budget vote for the third time this year',
  'New bakery opens in the old post office on Market Square',
  'Harbour festival returns in June with a longer programme',
  'Rail line closed for repairs over the Easter weekend',
  'Volunteers plant four hundred trees along the river path',
  'Library extends opening hours after readers sign petition',
];
