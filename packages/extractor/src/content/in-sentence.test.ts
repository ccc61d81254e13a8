// A call to action or a label inside a sentence is a word of it: the sentence is kept whole. Standing alone, or after
// a finished sentence, it is furniture still.
import { describe, expect, it } from 'vitest';

import { articleHead, expectOnly, markdownOf, newsPage, storyEndingWith } from './__fixtures__/news-site.js';

const closing = `<p>The lanes will be reviewed after a year, the council said in its closing statement on Monday night.</p>`;

describe('calls to action inside a sentence', () => {
  it('keeps a link, a button, a list of buttons and a link of a chrome class that the sentence reads', () => {
    const body =
      `<p>For details of how your answers are kept, please see our <a href="/privacy">Privacy Policy</a>.</p>` +
      `<p>Ready to take part? <a href="/contact">Contact us</a> at the town hall before the next meeting.</p>` +
      `<p>The plan was drawn up, according to <button type="button">Jane Doe</button>, a planner at the council.</p>` +
      `<p>Residents rated the scheme highly for: <button>safety</button>, <button>quiet</button>, <button>price</button>` +
      `</p><p><span>Cyclists who use the first stretch </span><a href="/survey">report</a><span> that it is quieter.</span>` +
      `</p><p>Most of the new lanes run past a <a class="recommendation-inline-link" href="/g">vegetable garden</a>.</p>` +
      closing;
    const { markdown } = markdownOf(newsPage(storyEndingWith(body), { head: articleHead }));
    expectOnly(markdown, [
      'please see our [Privacy Policy](',
      '[Contact us](',
      'according to Jane Doe, a planner',
      'safety, quiet, price',
      'past a [vegetable garden](',
      'stretch [report](',
    ]);
  });

  it('drops one standing alone or after a finished sentence, and a heading anchor', () => {
    const body =
      `<h2>How the lanes were chosen <a class="anchor-link" href="#how">🔗</a></h2>` +
      `<p>Paragraph A of the story: residents spoke for two hours about the plans.</p>` +
      `<p>The council will publish its answers in the spring. <a class="btn" href="/more">Learn more</a></p>` +
      `<p><a class="button" href="/subscribe">Get started today</a></p>${closing}`;
    const { markdown } = markdownOf(newsPage(storyEndingWith(body), { head: articleHead }));
    expectOnly(markdown, ['How the lanes were chosen', 'in the spring.'], ['🔗', 'Learn more', 'Get started']);
    expect(markdown).not.toContain('spring. [');
  });
});
