// An article's reference list under a furniture heading ("References"): dropped with its heading when small, kept
// with it when it is too large a share of the article to be furniture (docs/qa-researcher-day.md).
import { describe, expect, it } from 'vitest';

import { extractPage } from '../page.js';
import { page, prose } from './__fixtures__/synthetic-page.js';

const markdown = (main: string): string =>
  extractPage(page(main), { url: 'https://journal.test/article/1', formats: { markdown: true } }).markdown ?? '';

const references = (n: number): string =>
  Array.from(
    { length: n },
    (_, i) =>
      `<li id="ref${i + 1}">Author${i + 1} A, Other B. Title of cited paper number ${i + 1}. <i>J Sci.</i> 2020;` +
      `${i + 1}:1–10. doi: <a href="https://doi.org/10.5555/ref.${i + 1}">10.5555/ref.${i + 1}</a></li>`,
  ).join('');

const article = (refs: number): string =>
  `<article><h1>Gut microbiota modulate sleep</h1><section><h2>1. Introduction</h2>${prose('sleep', 6)}</section><section><h2>2. Methods</h2>${prose('mice', 6)}</section>` +
  `<section><h2>Acknowledgements</h2><p>We thank the animal facility staff for their care of the mice.</p></section>` +
  `<section class="ref-list"><h2>References</h2><ol>${references(refs)}</ol></section></article>`;

describe('main content: an article reference list', () => {
  it('keeps the "References" heading above a reference list kept for its size', () => {
    const md = markdown(article(40));
    expect(md).toContain('Title of cited paper number 40.');
    expect(md).toMatch(/## References\n\n1\. Author1 A/);
  });

  it('still drops a short one with its heading', () => {
    const md = markdown(article(2));
    expect(md).toContain('sleep paragraph 3');
    expect(md).not.toMatch(/References|cited paper/);
  });
});
