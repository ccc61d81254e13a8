import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';

import { htmlToMarkdown } from './index.js';

// What documentation generators emit (Hugo, MkDocs Material, Sphinx, rustdoc, MDN, MathJax 3, docutils), read back
// as a technical writer migrating the pages would (docs/qa-technical-writer-day.md).
const md = (html: string): string => htmlToMarkdown(html, { baseUrl: 'https://docs.acme.test/guide/page' });

describe('htmlToMarkdown: code as docs generators write it', () => {
  it("drops Hugo's line numbers, inline (`ln`) and in a gutter column of their own (`lnt`)", () => {
    const inline =
      '<div class="highlight"><pre class="chroma"><code class="language-go" data-lang="go">' +
      '<span class="line"><span class="ln">1</span><span class="cl">package main\n</span></span>' +
      '<span class="line"><span class="ln">2</span><span class="cl">func main() {}\n</span></span></code></pre></div>';
    expect(md(inline)).toBe('```go\npackage main\nfunc main() {}\n```');
    const table =
      '<div class="highlight"><div class="chroma"><table class="lntable"><tr>' +
      '<td class="lntd"><pre class="chroma"><code><span class="lnt">1\n</span><span class="lnt">2\n</span></code></pre></td>' +
      '<td class="lntd"><pre class="chroma"><code class="language-go" data-lang="go">' +
      '<span class="line"><span class="cl">package main\n</span></span>' +
      '<span class="line"><span class="cl">func main() {}\n</span></span></code></pre></td></tr></table></div></div>';
    expect(md(table)).toBe('```go\npackage main\nfunc main() {}\n```');
  });

  it("drops the label naming the language in a code block's wrapper (VitePress), not a `lang` span in prose", () => {
    const html =
      '<div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button>' +
      '<span class="lang">ts</span><pre class="shiki vp-code"><code><span class="line"><span>let x = 1</span></span>' +
      '</code></pre></div><p>Say <span class="lang">bonjour</span>.</p>';
    expect(md(html)).toBe('```ts\nlet x = 1\n```\n\nSay bonjour.');
  });

  it("keeps the wrapper's language across a line-number table (MkDocs Material, Sphinx `linenos`)", () => {
    const html =
      '<div class="language-yaml highlight"><table class="highlighttable"><tr>' +
      '<td class="linenos"><div class="linenodiv"><pre><span class="normal">1</span></pre></div></td>' +
      '<td class="code"><div><pre><span></span><code><span class="nt">site_name</span>: Widget\n</code></pre></div></td>' +
      '</tr></table></div>' +
      '<div class="highlight-shell-session notranslate"><table class="highlighttable"><tbody><tr>' +
      '<td class="linenos"><div class="linenodiv"><pre><span class="normal">1</span></pre></div></td>' +
      '<td class="code"><div class="highlight"><pre><span class="gp">$ </span>make\n</pre></div></td></tr></tbody></table></div>';
    expect(md(html)).toBe('```yaml\nsite_name: Widget\n```\n\n```shell\n$ make\n```');
  });

  it("starts a new line after a block element that ends inside <pre> (rustdoc's where clause)", () => {
    const html =
      '<pre class="rust item-decl"><code>pub struct Vec&lt;T&gt;<div class="where">where\n    A: Allocator,</div>' +
      '{ /* private fields */ }</code></pre>';
    expect(md(html)).toBe('```\npub struct Vec<T>\nwhere\n    A: Allocator,\n{ /* private fields */ }\n```');
    // one element per line with no newline text between them stays one line each
    expect(md('<pre><code><div>a</div><div>b</div>\n<div>c</div></code></pre>')).toBe('```\na\nb\nc\n```');
  });
});

describe('htmlToMarkdown: math, footnotes, links and quotes as docs generators write them', () => {
  it("reads MathJax 3's MathML, which sits in a container classed `MathJax`", () => {
    const html =
      '<p>So <mjx-container class="MathJax CtxtMenu_Attached_0" jax="CHTML"><mjx-math class="MJX-TEX" aria-hidden="true">' +
      '<mjx-mi class="mjx-i"><mjx-c class="mjx-c1D465 TEX-I"></mjx-c></mjx-mi></mjx-math>' +
      '<mjx-assistive-mml unselectable="on" display="inline"><math xmlns="http://www.w3.org/1998/Math/MathML">' +
      '<mi>x</mi><mo>=</mo><mn>2</mn></math></mjx-assistive-mml></mjx-container> holds.</p>';
    expect(md(html)).toBe('So $x=2$ holds.');
  });

  it("writes MediaWiki's TeX without its style wrapper, only when the wrapper encloses the whole formula", () => {
    const mediawiki = (tex: string, display = false) =>
      `<math xmlns="http://www.w3.org/1998/Math/MathML"${display ? ' display="block"' : ''} alttext="${tex}">` +
      `<semantics><mrow><mi>x</mi></mrow><annotation encoding="application/x-tex">${tex}</annotation></semantics></math>`;
    const html =
      `<p>Square ${mediawiki('{\\displaystyle x^{2}}')}, text ${mediawiki('{\\textstyle {\\frac {1}{2}}}')}, ` +
      `small ${mediawiki('{\\scriptstyle \\{a\\}}')}, two ${mediawiki('{\\displaystyle a}+{\\displaystyle b}')}, ` +
      `escaped ${mediawiki('{\\displaystyle \\{}')}, open ${mediawiki('{\\displaystyle {x}')}.</p>` +
      mediawiki('{\\displaystyle \\sum _{i=1}^{n}i}', true) +
      // alttext alone, as MediaWiki's older output and other generators carry it
      '<p>Alt <math alttext="{\\displaystyle \\alpha }"><mi>α</mi></math>.</p>';
    expect(md(html)).toBe(
      'Square $x^{2}$, text ${\\frac {1}{2}}$, small $\\{a\\}$, two ${\\displaystyle a}+{\\displaystyle b}$, escaped ' +
        '$\\{$, open ${\\displaystyle {x}$.\n\n$$\n\\sum _{i=1}^{n}i\n$$\n\nAlt $\\alpha$.',
    );
  });

  it('writes the TeX source that Sphinx and pymdownx leave for MathJax as $...$, and anything else as it is', () => {
    const html =
      '<p>Energy <span class="arithmatex">\\(E = mc^2\\)</span>, mean ' +
      '<span class="math notranslate nohighlight">\\(\\bar{x}_i\\)</span>:</p>' +
      '<div class="math notranslate nohighlight">\n\\[\\sigma^2 = 1\\]</div>' +
      '<p>Typeset: <span class="math"><span class="MathJax">x</span><script type="math/tex">x^2</script></span>, ' +
      '<span class="math">plain *words*</span>.</p>';
    const expected =
      'Energy $E = mc^2$, mean $\\bar{x}_i$:\n\n$$\n\\sigma^2 = 1\n$$\n\nTypeset: $x^2$, plain \\*words\\*.';
    expect(md(html)).toBe(expected);
    expect(htmlToMarkdown(parseDocument(html), { baseUrl: 'https://docs.acme.test/guide/page' })).toBe(expected);
  });

  it('writes docutils\' footnote (`<aside role="doc-footnote">`) as the definition of its reference', () => {
    const html =
      '<p>Not framed<a class="footnote-reference brackets" href="#id3" id="id1" role="doc-noteref">' +
      '<span class="fn-bracket">[</span>1<span class="fn-bracket">]</span></a>.</p>' +
      '<aside class="footnote-list brackets"><aside class="footnote brackets" id="id3" role="doc-footnote">' +
      '<span class="label"><span class="fn-bracket">[</span><a role="doc-backlink" href="#id1">1</a>' +
      '<span class="fn-bracket">]</span></span><p>See the errata.</p><p>Second paragraph.</p></aside></aside>';
    expect(md(html)).toBe('Not framed[^1].\n\n[^1]: See the errata.\n\n    Second paragraph.');
  });

  it("writes older docutils' footnotes (a <dl> of label and note, a one-row table) as definitions", () => {
    const html =
      '<p>Text<a class="footnote-reference brackets" href="#id3" id="id1">1</a>.</p>' +
      '<dl class="footnote brackets"><dt class="label" id="id3"><span class="brackets">' +
      '<a class="fn-backref" href="#id1">1</a></span></dt><dd><p>A note.</p></dd></dl>' +
      '<p>More<a class="footnote-reference" href="#id4" id="id2">[2]</a>.</p>' +
      '<table class="docutils footnote" frame="void" id="id4" rules="none"><colgroup><col class="label" /><col />' +
      '</colgroup><tbody valign="top"><tr><td class="label"><a class="fn-backref" href="#id2">[2]</a></td>' +
      '<td>An older note.</td></tr></tbody></table><dl><dt>Term</dt><dd>Definition</dd></dl>';
    expect(md(html)).toBe('Text[^1].\n\n[^1]: A note.\n\nMore[^2].\n\n[^2]: An older note.\n\nTerm\n\n: Definition');
  });

  it("writes the words of a heading or a term that links to itself, and drops a term's `¶` (MDN, Sphinx)", () => {
    const html =
      '<h2 id="syntax"><a href="#syntax">Syntax</a></h2>' +
      '<dl><dt id="callbackfn"><a href="#callbackfn"><code>callbackFn</code></a> <span>Optional</span></dt>' +
      '<dd>A function.</dd><dt id="json.dump">json.dump(obj)<a class="headerlink" href="#json.dump">¶</a></dt>' +
      '<dd>Serialize.</dd></dl><h3 id="a"><a href="#b">Elsewhere</a></h3>' +
      '<h2 id="why">Why <a href="#why"><img src="/img/anchorlink-icon.png"></a></h2>';
    expect(md(html)).toBe(
      '## Syntax\n\n`callbackFn` Optional\n\n: A function.\n\njson.dump(obj)\n\n: Serialize.\n\n' +
        '### [Elsewhere](https://docs.acme.test/guide/page#b)\n\n## Why',
    );
  });

  it('writes no bare marker for an item whose only link was dropped, and keeps an empty item of the page', () => {
    const html =
      '<ul><li><a aria-label="Home" href="/"><svg viewBox="0 0 9 9"><path d="M1"></path></svg></a></li>' +
      '<li>Guide</li></ul><ul><li><a href="#top-search">Skip to search</a></li><li>Docs</li></ul>' +
      '<ul><li>a</li><li></li><li>b</li></ul>';
    expect(md(html)).toBe('- Guide\n\n* Docs\n\n- a\n-\n- b');
  });

  it('writes the quotation marks a browser draws around <q>', () => {
    expect(md('<p>The spec says <q>MUST <em>not</em></q>.</p>')).toBe('The spec says "MUST *not*".');
  });
});
