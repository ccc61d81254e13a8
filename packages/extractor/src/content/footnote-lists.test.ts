/** Main content keeps the notes the page's own footnote references point to, though they sit in an `<aside>`. */
import { describe, expect, it } from 'vitest';

import { explainPage } from '../explain/index.js';
import { extractPage } from '../page.js';
import { page, prose } from './__fixtures__/synthetic-page.js';

const markdown = (main: string, options: { after?: string } = {}): string =>
  extractPage(page(main, options), { url: 'https://docs.acme.test/json', formats: { markdown: true } }).markdown ?? '';

describe('main content: footnote lists', () => {
  it('keeps docutils\' `<aside class="footnote-list">` that the text\'s references point to', () => {
    const md = markdown(
      `<article><h1>json</h1>${prose('json', 2)}` +
        '<p>As noted in the errata for RFC 7159<a class="footnote-reference brackets" href="#id2" id="id1" ' +
        'role="doc-noteref"><span class="fn-bracket">[</span>1<span class="fn-bracket">]</span></a>.</p>' +
        '<p class="rubric">Footnotes</p><aside class="footnote-list brackets">' +
        '<aside class="footnote brackets" id="id2" role="doc-footnote"><span class="label">' +
        '<span class="fn-bracket">[</span><a role="doc-backlink" href="#id1">1</a>' +
        '<span class="fn-bracket">]</span></span><p>As noted in the errata for RFC 7159, JSON permits literal U+2028.</p>' +
        '</aside></aside></article>',
    );
    expect(md).toContain('RFC 7159[^1].');
    expect(md).toContain('[^1]: As noted in the errata for RFC 7159, JSON permits literal U+2028.');
  });

  it('keeps an ARIA endnotes section, and still drops an aside no reference points to', () => {
    const md = markdown(
      `<article><h1>Essay</h1>${prose('essay', 2)}<p>A claim<sup><a href="#fn1" id="r1" role="doc-noteref">1</a></sup>.</p>` +
        '<aside role="doc-endnotes"><ol><li id="fn1" role="doc-endnote"><p>The source of the claim. ' +
        '<a href="#r1" role="doc-backlink">↩</a></p></li></ol></aside>' +
        '<aside class="related"><h3>Related posts</h3><ul><li><a href="/a">Another post about things</a></li></ul>' +
        '</aside></article>',
    );
    expect(md).toContain('A claim[^1].');
    expect(md).toContain('[^1]: The source of the claim.');
    expect(md).not.toContain('Related posts');
  });

  it('keeps a "Footnotes" section the text\'s references point into (PMC), and drops one no reference reaches', () => {
    const html = (ref: string) =>
      `<article><h1>Sleep and memory</h1>${prose('study', 3)}` +
      `<p>Participants slept in the laboratory for two nights${ref}.</p>` +
      '<section class="fn-group" id="fn-group1"><h2 class="pmc_sec_title">Footnotes</h2>' +
      '<div class="fn p" id="fn1"><sup>1</sup><p>Two participants slept at home, with a portable recorder.</p>' +
      '</div></section></article>';
    const article = (ref: string) => markdown(html(ref));
    const ref = '<sup><a href="#fn1" class="usa-link" aria-describedby="fn1">1</a></sup>';
    const linked = article(ref);
    expect(linked).toContain('## Footnotes');
    expect(linked).toContain('Two participants slept at home, with a portable recorder.');
    const unlinked = article('');
    expect(unlinked).not.toContain('Footnotes');
    expect(unlinked).not.toContain('Two participants slept at home');
    const block = explainPage(page(html(ref)), { url: 'https://pmc.test/1' }).blocks.find((b) =>
      b.text.includes('Two participants'),
    );
    expect(block).toMatchObject({ verdict: 'kept', rule: 'footnote-section' });
  });

  it('still drops a "References" list the text cites with superscript links (issue 42)', () => {
    const md = markdown(
      `<article><h1>Prizes</h1>${prose('prize', 3)}<p>The prize was first given in 1901<sup><a href="#cite1">[1]</a>` +
        '</sup>.</p><h2>References</h2><ol><li id="cite1">The Nobel Foundation, 2001.</li></ol></article>',
    );
    expect(md).not.toContain('The Nobel Foundation, 2001.');
  });
});
