/** A long text cut to the answer's budget: as much of it as fits, not the shortest cut. */
import { expect, it } from 'vitest';

import { cutToBudget, readFrom } from './answer-budget.js';

it('keeps most of the budget for a text of many short lines', () => {
  // 40,000 paragraphs: 2.6 MB of markdown whose JSON escapes 80,000 newlines.
  const markdown = Array.from({ length: 40_000 }, (_, i) => `Paragraph ${i} of the big page, about elephants.`).join(
    '\n\n',
  );
  const page = { success: true, data: { metadata: { title: 'Big' }, markdown } };
  const answer = cutToBudget(page, 80_000);
  const size = JSON.stringify(answer, null, 2).length;
  expect(size).toBeLessThanOrEqual(80_000);
  // Before: cut to 2,000 characters (the shortest cut), the escapes counted as what the cut could not free.
  expect(answer.data.markdown.length).toBeGreaterThan(60_000);
  expect(answer.data.markdown).toMatch(/\[cut: characters 0 to \d+ of 2\d{6} shown, .* offset: \d+ reads on\.\]$/);
});

it('says where an offset or skip past the end is, instead of an empty text or list', () => {
  const page = {
    success: true,
    data: { markdown: 'x'.repeat(500), links: ['https://a.example/', 'https://b.example/'] },
  };
  // Before: `markdown: ''` and `links: []`, as for a page without any.
  expect(readFrom(page, { offset: 999_999, skip: 5 })).toMatchObject({
    data: {
      markdown: "[end: offset 999999 is past the 500 characters of this page's markdown; nothing is left to read.]",
      links: ["[end: skip 5 is past the 2 entries of this page's links; nothing is left to read.]"],
    },
  });
  expect(readFrom(page, { offset: 499, skip: 1 })).toMatchObject({
    data: { markdown: 'x', links: ['https://b.example/'] },
  });
});
