import { describe, expect, it } from 'vitest';

import { htmlToMarkdown } from './markdown/index.js';
import { extractPage } from './page.js';

// Formulas as scholarly pages carry them (docs/qa-researcher-day.md): each reaches the markdown once, as TeX, with
// the main content and without it.
const article = (formula: string) =>
  '<html><body><nav><a href="/">Home</a> <a href="/about">About</a></nav><main><article><h1>Energy</h1>' +
  `<p>The relation ${formula} holds for a body at rest, as the paper shows at length in its second section.</p>` +
  '<p>A second paragraph of the article, long enough to be its text, closes the argument with a remark.</p>' +
  '</article></main><footer>Footer</footer></body></html>';

const markdown = (html: string, onlyMainContent: boolean) =>
  extractPage(html, { url: 'https://journal.test/a', onlyMainContent, formats: { markdown: true, html: true } });

describe('formulas of scholarly pages', () => {
  it("writes MathJax 2's TeX script once, inline and display, and keeps it as MathML in the html", () => {
    const inline =
      '<span class="MathJax_Preview">E=mc2</span><span class="MathJax" id="MathJax-Element-1-Frame"><nobr>' +
      '<span class="math"><span>E</span><span>=</span><span>m</span><span>c</span><sup>2</sup></span></nobr></span>' +
      '<script type="math/tex" id="MathJax-Element-1">E=mc^2</script>';
    const display =
      '<div class="MathJax_Display"><span class="MathJax">glyphs</span></div>' +
      '<script type="math/tex; mode=display">\\int_0^1 x\\,dx</script>';
    for (const onlyMainContent of [true, false]) {
      const out = markdown(article(inline + ' and ' + display), onlyMainContent);
      expect(out.markdown).toContain('The relation $E=mc^2$ and');
      expect(out.markdown).toContain('$$\n\\int_0^1 x\\,dx\n$$');
      expect(out.markdown).not.toMatch(/glyphs|mc2/);
      expect(out.html).toContain('<annotation encoding="application/x-tex">E=mc^2</annotation>');
      expect(out.html).not.toContain('<script');
    }
  });

  it("writes MediaWiki's formula from its MathML hidden beside the image, not dropped as hidden text", () => {
    const tex = '{\\displaystyle x^{2}}';
    const formula =
      '<span class="mwe-math-element"><span class="mwe-math-mathml-inline mwe-math-mathml-a11y" style="display: none;">' +
      `<math xmlns="http://www.w3.org/1998/Math/MathML" alttext="${tex}"><semantics><mrow><msup><mi>x</mi><mn>2</mn>` +
      `</msup></mrow><annotation encoding="application/x-tex">${tex}</annotation></semantics></math></span>` +
      `<img src="https://wikimedia.test/math/x2.svg" class="mwe-math-fallback-image-inline" aria-hidden="true" alt="${tex}">` +
      '</span>';
    for (const onlyMainContent of [true, false]) {
      expect(markdown(article(formula), onlyMainContent).markdown).toContain('The relation $x^{2}$ holds');
    }
  });

  it("writes a display formula in MediaWiki's indent (a <dl><dd> without a term) as a $$ block", () => {
    const tex = '{\\displaystyle E=mc^{2}}';
    const formula =
      '<dl><dd><span class="mwe-math-element"><span class="mwe-math-mathml-display mwe-math-mathml-a11y" ' +
      `style="display: none;"><math display="block" alttext="${tex}"><semantics><mrow><mi>E</mi></mrow>` +
      `<annotation encoding="application/x-tex">${tex}</annotation></semantics></math></span>` +
      `<img src="https://wikimedia.test/math/e.svg" class="mwe-math-fallback-image-display" alt="${tex}"></span></dd></dl>`;
    for (const onlyMainContent of [true, false]) {
      expect(markdown(article(formula), onlyMainContent).markdown).toContain(
        'The relation\n\n$$\nE=mc^{2}\n$$\n\nholds',
      );
    }
    // a term makes it a definition, and an indent of text stays one
    const md = (html: string) => htmlToMarkdown(html, {});
    expect(md('<dl><dt>Energy</dt><dd><math display="block" alttext="E"></math></dd></dl>')).toBe(
      'Energy\n\n: $$\n  E\n  $$',
    );
    expect(md('<dl><dd>an indented line</dd></dl>')).toBe(': an indented line');
  });

  it('still drops other text hidden with display:none', () => {
    const out = markdown(article('<span style="display: none">secret <b>words</b></span>'), true);
    expect(out.markdown).not.toContain('secret');
  });
});
