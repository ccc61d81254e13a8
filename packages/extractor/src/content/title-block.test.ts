// Where no block of a page dominates, the block that holds the page's one `<h1>` is the content when it clearly
// outweighs the blocks beside it (a story beside a column of other prose); an opening post beside replies as long as
// it, a short block under the title, and a page of several `<h1>` keep the walk where it stopped.
import { describe, expect, it } from 'vitest';

import { explainPage } from '../explain/index.js';
import { extract, page, prose } from './__fixtures__/synthetic-page.js';

const twoColumns = (story: string, beside: string): string =>
  page(`<div class="layout"><div class="col-wide">${story}</div><div class="col-narrow">${beside}</div></div>`);

describe('the block the title heads', () => {
  it("keeps the story under the page's h1 and leaves the column of other prose beside it", () => {
    const { text } = extract(
      twoColumns(`<h1>Restoring an oak desk</h1>${prose('oak', 5)}`, `<h2>Club news</h2>${prose('club', 2)}`),
    );
    expect(text).toContain('Restoring an oak desk');
    expect(text).toContain('oak paragraph 5');
    expect(text).not.toContain('club paragraph 1');
    expect(text).not.toContain('Club news');
  });

  it('goes no lower than the block holding the title once it chose that block', () => {
    const { text } = extract(
      twoColumns(
        `<article class="story"><h1>Restoring an oak desk</h1><div class="txt">${prose('oak', 5)}</div></article>`,
        prose('club', 2),
      ),
    );
    expect(text).toContain('Restoring an oak desk');
    expect(text).toContain('oak paragraph 5');
    expect(text).not.toContain('club paragraph 1');
  });

  it('names its rule in explain, and the column beside it as outside the container', () => {
    const html = twoColumns(`<h1>Restoring an oak desk</h1>${prose('oak', 5)}`, prose('club', 2));
    const blocks = explainPage(html, { url: 'https://example.test/oak-desk' }).blocks;
    const kept = blocks.find((b) => b.text.startsWith('oak paragraph 2'));
    const left = blocks.find((b) => b.text.startsWith('club paragraph 1'));
    expect(kept).toMatchObject({ verdict: 'kept', rule: 'title-block' });
    expect(left).toMatchObject({ verdict: 'dropped', rule: 'outside-container' });
  });

  it('keeps both when the other block holds half as much prose or more (an opening post and its replies)', () => {
    const { text } = extract(twoColumns(`<h1>Which finish for oak?</h1>${prose('oak', 4)}`, prose('reply', 3)));
    expect(text).toContain('oak paragraph 4');
    expect(text).toContain('reply paragraph 3');
  });

  it('keeps both when the block under the title is short (a heading and an intro)', () => {
    const { text } = extract(
      twoColumns(
        `<h1>Oak desks</h1>${prose('oak', 2)}`,
        '<p>The club meets on the first Tuesday of the month in the village hall, from seven until nine.</p><p>New members are welcome, and tea is served at the break.</p>',
      ),
    );
    expect(text).toContain('oak paragraph 2');
    expect(text).toContain('The club meets on the first Tuesday');
  });

  it('keeps both when the page has several h1', () => {
    const { text } = extract(
      twoColumns(`<h1>Restoring an oak desk</h1>${prose('oak', 5)}`, `<h1>Club news</h1>${prose('club', 2)}`),
    );
    expect(text).toContain('oak paragraph 5');
    expect(text).toContain('club paragraph 2');
  });
});
