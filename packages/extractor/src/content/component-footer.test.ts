// A component's own footer (`banner__footer`) that holds a call-out's text is the story's, not the page's footer.
import { describe, it } from 'vitest';

import { expectOnly, markdownOf, newsPage, story } from './__fixtures__/news-site.js';

/** A call-out box of a tax software guide: a BEM component whose footer element holds the box's text. */
const spotlight = (name: string): string =>
  `<div class="banner"><div class="banner-item"><section class="banner__footer"><p class="banner__meta"><strong>Product spotlight</strong></p><p class="banner__meta"><a href="/products/${name.toLowerCase()}">${name}</a>, for example, offers full support for federal, state and local returns, with automated calculations that follow the latest tax laws.</p></section></div></div>`;

/** Teaser cards after the story, whose footers hold only their links and dates. */
const cards = [1, 2, 3]
  .map(
    (i) =>
      `<div class="card"><h3 class="card__title"><a href="/guides/${i}">Guide ${i} for tax season</a></h3><div class="card__footer"><a href="/authors/${i}">Editor ${i}</a> <span>Mar 0${i}</span> <a href="/guides/${i}#comments">Comments</a></div></div>`,
  )
  .join('');

describe('articles: a component’s own footer', () => {
  it('keeps a call-out box whose text sits in its BEM footer element, not the teaser cards’ footers', () => {
    const body = story.replace(
      '</div></article>',
      `${spotlight('UltraTax')}</div><div class="more">${cards}</div></article>`,
    );
    const { markdown } = markdownOf(newsPage(body));
    expectOnly(
      markdown,
      ['Councillor Amir Shah', 'offers full support for federal, state and local returns'],
      ['Editor 2', 'Most read', 'Customer service'],
    );
  });
});
