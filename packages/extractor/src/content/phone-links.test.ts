// Phone calls to action in the text of lead-generation blogs and service pages: a number standing alone as a button,
// or after "Or call us directly". A number inside a sentence is the text.
import { describe, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, newsPage, storyEndingWith } from './__fixtures__/news-site.js';

const closing = `<p>The lanes will be reviewed after a year, the council said in its closing statement on Monday night.</p>`;

describe('phone calls to action in the text', () => {
  it('drops a number standing alone and a number after a short lead-in', () => {
    const body = `<div class="cta-row"><a class="quote" href="/quote">Get a free estimate</a><div class="phone"><a href="tel:+18005550142">(800) 555-0142</a></div></div><p>Paragraph A of the story: residents spoke for two hours.</p><p>Or call us directly <a href="tel:1-844-555-0199">1-844-555-0199</a></p>${closing}`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(body), { head: articleHead }));
    expectOnly(
      markdown,
      ['Paragraph A of the story', 'reviewed after a year'],
      ['555-0142', 'call us directly', '555-0199'],
    );
  });

  it('keeps a number in a sentence, also at its end', () => {
    const body = `<p>Residents can book a place at the next meeting by calling the clerk on <a href="tel:01632960123">01632 960123</a> before Friday.</p><p><strong><em>To ask about the works, give us a call today! <a href="tel:01632960456">01632 960456</a></em></strong></p>${closing}`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(body), { head: articleHead }));
    expectOnly(markdown, ['01632 960123', 'before Friday', '01632 960456']);
  });
});
