// A list item left without text or media (a blank price slot, an icon's item) is written as a bare `-` line: it goes.
import { describe, expect, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, newsPage, storyEndingWith } from './__fixtures__/news-site.js';

const closing = `<p>The lanes will be reviewed after a year, the council said in its closing statement on Monday night.</p>`;

describe('list items without text or media', () => {
  it('drops them, and keeps items holding only a picture', () => {
    const body =
      `<p>Paragraph A of the story: residents spoke for two hours about the plans for the lanes.</p>` +
      `<ul><li>Cost: £2.1 million</li><li class="price-map"> </li><li><i class="icon-star"></i></li>` +
      `<li>Length: 1.4 miles</li><li><img src="/map.png" alt="Route map"></li></ul>${closing}`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(body), { head: articleHead }));
    expectOnly(markdown, ['- Cost: £2.1 million\n- Length: 1.4 miles\n- ![Route map](']);
    expect(markdown).not.toMatch(/^\s*-\s*$/m);
  });
});
