/** extractMainContent on content nested in itself: a list item's sub-list, a post's replies. */
import { describe, expect, it } from 'vitest';

import { extract, page } from './__fixtures__/synthetic-page.js';

/** `depth` elements nested in one another, each `open(i)` closed by `close`. */
const nested = (depth: number, open: (i: number) => string, close: string): string =>
  Array.from({ length: depth }, (_, i) => open(i)).join('') + close.repeat(depth);

describe('extractMainContent: items nested in items', () => {
  it.each([5, 8, 30])('keeps every level of a list nested %i deep', (depth) => {
    const { text } = extract(page(`<main>${nested(depth, (i) => `<ul><li>Outline point ${i}`, '</li></ul>')}</main>`));
    for (let i = 0; i < depth; i++) expect(text).toContain(`Outline point ${i}`);
  });

  it.each([5, 8])('keeps the opening post of a thread whose replies nest %i deep', (depth) => {
    const reply = (i: number) =>
      `<div class="post"><p>Post ${i}: a reply of a few words, long enough to read as a reply, explaining a point of view on the matter.</p><div class="replies">`;
    const { text } = extract(page(`<main><h1>A thread</h1>${nested(depth, reply, '</div></div>')}</main>`));
    for (let i = 0; i < depth; i++) expect(text).toContain(`Post ${i}:`);
  });
});
