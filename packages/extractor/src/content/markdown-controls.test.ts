/** Main content keeps what its markdown reads among the elements that hold no text: formulas and task checkboxes. */
import { describe, expect, it } from 'vitest';

import { extractPage } from '../page.js';
import { page, prose } from './__fixtures__/synthetic-page.js';

const markdown = (main: string): string =>
  extractPage(page(main), { url: 'https://docs.acme.test/guide', formats: { markdown: true } }).markdown ?? '';

describe('main content: MathML and task-list checkboxes', () => {
  it("keeps a KaTeX formula's MathML, which the markdown writes as LaTeX", () => {
    const katex =
      '<span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics>' +
      '<mrow><mi>e</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></mrow>' +
      '<annotation encoding="application/x-tex">e = mc^2</annotation></semantics></math></span>' +
      '<span class="katex-html" aria-hidden="true"><span class="base"><span class="mord">e</span></span></span></span>';
    const md = markdown(`<article><h1>Energy</h1>${prose('energy', 2)}<p>Einstein: ${katex}.</p></article>`);
    expect(md).toContain('Einstein: $e = mc^2$.');
  });

  it("keeps a task list's checkboxes, in the item and in a label (MkDocs Material), and no form's", () => {
    const md = markdown(
      `<article><h1>Release</h1>${prose('release', 2)}<ul class="task-list">` +
        '<li class="task-list-item"><input type="checkbox" disabled checked> Tag the release</li>' +
        '<li class="task-list-item"><label class="task-list-control"><input type="checkbox" disabled>' +
        '<span class="task-list-indicator"></span></label> Write the notes</li></ul>' +
        '<p><label><input type="checkbox" name="agree"> I agree</label></p></article>',
    );
    expect(md).toContain('- [x] Tag the release\n- [ ] Write the notes');
    expect(md).not.toContain('[ ] I agree');
  });
});
