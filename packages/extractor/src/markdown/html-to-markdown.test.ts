import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';

import { htmlToMarkdown } from './index.js';

const md = (html: string, options?: Parameters<typeof htmlToMarkdown>[1]): string => htmlToMarkdown(html, options);

describe('htmlToMarkdown: reference §10.3 examples', () => {
  it('converts a paragraph', () => {
    expect(md('<p>Hello, world!</p>')).toBe('Hello, world!');
  });

  it('converts bold text and a list', () => {
    expect(md('<div><p>Hello <strong>bold</strong> world!</p><ul><li>List item</li></ul></div>')).toBe(
      'Hello **bold** world!\n\n- List item',
    );
  });

  it('returns "" for empty input', () => {
    expect(md('')).toBe('');
    expect(htmlToMarkdown(null as unknown as string)).toBe('');
    expect(md('<div>  </div>')).toBe('');
  });
});

describe('htmlToMarkdown: structure', () => {
  it('writes emphasis nested inside its own kind, and collapses a redundant one', () => {
    expect(md('<p><em>foo <em>bar</em> baz</em></p>')).toBe('*foo *bar* baz*');
    expect(md('<p><strong>a, <b>b</b>, c</strong></p>')).toBe('**a, **b**, c**');
    // `<b><strong>` opened together is one bold run on real pages.
    expect(md('<p><b><strong>Note:</strong> text</b></p>')).toBe('**Note: text**');
  });

  it('writes ATX headings', () => {
    expect(md('<h1>One</h1><h3>Three <em>it</em></h3>')).toBe('# One\n\n### Three *it*');
  });

  it('writes links with titles and resolves relative URLs against baseUrl', () => {
    expect(md('<a href="/x" title="A &quot;t&quot;">go</a>', { baseUrl: 'https://e.com/a/b' })).toBe(
      '[go](https://e.com/x "A \\"t\\"")',
    );
    expect(md('<a href="x.html">rel</a>')).toBe('[rel](x.html)');
  });

  it('writes images with alt text', () => {
    expect(md('<img src="/i.png" alt="An [image]">', { baseUrl: 'https://e.com/' })).toBe(
      '![An \\[image\\]](https://e.com/i.png)',
    );
  });

  it('nests lists with correct indentation and start numbers', () => {
    expect(md('<ol start="9"><li>nine<ul><li>sub</li></ul></li><li>ten</li></ol>')).toBe('9. nine\n   - sub\n10. ten');
  });

  it('fences code with its language', () => {
    expect(md('<pre><code class="language-ts">let a = 1;\n  a++;\n</code></pre>')).toBe(
      '```ts\nlet a = 1;\n  a++;\n```',
    );
  });

  it('writes GFM tables', () => {
    expect(md('<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>')).toBe(
      '| A | B |\n| --- | --- |\n| 1 | 2 |',
    );
  });

  it('reads a table whose spans would fill a grid far larger than its cells cell by cell', () => {
    // a few cells spanning 1000 columns and 65534 rows are layout: a grid would be thousands of times the input
    const html = `<table><tr><th colspan=1000 rowspan=65534>x</th></tr>${'<tr><td>y</td></tr>'.repeat(3)}</table>`;
    expect(md(html)).toBe('x\n\ny\n\ny\n\ny');
    // ordinary spans keep the table a table (a header alone in its row is a title, written once)
    expect(md('<table><tr><th colspan=2>Head</th></tr><tr><td>a</td><td>b</td></tr></table>')).toBe(
      '| Head | |\n| --- | --- |\n| a | b |',
    );
  });

  it("repeats a merged cell's text into the columns and rows it spans, so every row reads whole", () => {
    const html =
      '<table><thead><tr><th rowspan=2>Night</th><th colspan=2>Sleep (min)</th></tr><tr><th>NREM</th><th>REM</th></tr>' +
      '</thead><tbody><tr><td rowspan=2>1</td><td>300</td><td>90</td></tr><tr><td>310</td><td>80</td></tr>' +
      '<tr><td colspan=2>no data</td><td>0</td></tr></tbody></table>';
    expect(md(html)).toBe(
      [
        '| Night | Sleep (min) | Sleep (min) |',
        '| --- | --- | --- |',
        '| Night | NREM | REM |',
        '| 1 | 300 | 90 |',
        '| 1 | 310 | 80 |',
        // a data cell's extra columns stay empty: only a header names every column it spans
        '| no data | | 0 |',
      ].join('\n'),
    );
    // a layout table (a cell of several blocks) reads each cell once, however many slots it spans
    expect(md('<table><tr><td rowspan=2><h2>Specs</h2><p>x</p></td><td>a</td></tr><tr><td>b</td></tr></table>')).toBe(
      '## Specs\n\nx\n\na\n\nb',
    );
  });

  it('writes a long merged cell once, so a paragraph spanning many rows is not copied into each', () => {
    const long = 'word '.repeat(40).trim();
    const rows = Array.from(
      { length: 500 },
      (_, i) => `<tr>${i === 0 ? `<td rowspan=500>${long}</td>` : ''}<td>${i}</td></tr>`,
    );
    const out = md(`<table><tr><th>Note</th><th>n</th></tr>${rows.join('')}</table>`);
    expect(out.split(long)).toHaveLength(2);
    expect(out).toContain('\n| | 499 |');
    // a short one (a label, a dash) is repeated into every row it spans
    expect(
      md('<table><tr><th>a</th><th>b</th></tr><tr><td rowspan=2>—</td><td>1</td></tr><tr><td>2</td></tr></table>'),
    ).toBe('| a | b |\n| --- | --- |\n| — | 1 |\n| — | 2 |');
  });

  it('writes blockquotes and hard breaks', () => {
    expect(md('<blockquote><p>a<br>b</p><p>c</p></blockquote>')).toBe('> a\\\n> b\n>\n> c');
  });

  it('converts a DOM without re-parsing it, like the same HTML as a string', () => {
    const html = '<h2>T</h2><p>x <a href="/y">y</a></p><ul><li>1</li></ul><table><tr><td>a</td><td>b</td></tr></table>';
    const doc = parseDocument(html);
    expect(htmlToMarkdown(doc)).toBe(md(html));
    expect(htmlToMarkdown(doc.children)).toBe(md(html));
  });
});

describe('htmlToMarkdown: heading permalinks', () => {
  const base = { baseUrl: 'https://docs.acme.test/guide/install' };

  it("drops a heading's link to its own place in the page when its text is a symbol, as docs generators write it", () => {
    // Docusaurus (a zero-width space), MkDocs and Sphinx (`¶`), a `#` before the text, a link icon, the page's own URL.
    expect(
      md(
        '<h2 id="usage">Usage<a class="hash-link" href="#usage" title="Direct link to Usage">\u200b</a></h2>' +
          '<h2 id="options">Options<a class="headerlink" href="#options" title="Permanent link">¶</a></h2>' +
          '<h3 id="env"><a href="#env">#</a>Environment</h3>' +
          '<h3 id="t"><a href="https://docs.acme.test/guide/install#t" aria-label="link">🔗</a> Troubleshooting</h3>',
        base,
      ),
    ).toBe('## Usage\n\n## Options\n\n### Environment\n\n### Troubleshooting');
  });

  it('keeps the words of a heading that links to itself, a link to another page, and symbols outside headings', () => {
    expect(
      md(
        '<h2 id="a"><a href="#a">Install on Linux</a></h2><h2>See <a href="/faq#x">#</a></h2>' +
          '<p>Step <a href="#step-2">§</a> and <a href="#top">#</a></p>',
        base,
      ),
    ).toBe(
      '## Install on Linux\n\n' +
        '## See [#](https://docs.acme.test/faq#x)\n\n' +
        'Step [§](https://docs.acme.test/guide/install#step-2) and [#](https://docs.acme.test/guide/install#top)',
    );
  });

  it('drops a link whose text is only zero-width characters, as it drops an empty one', () => {
    expect(md('<p>Read <a href="/x">\u200b\u200d</a>this.</p>', base)).toBe('Read this.');
  });
});

describe('htmlToMarkdown: ruby annotations', () => {
  it('writes the base whole, then its readings in parentheses (a search for the word finds it)', () => {
    expect(md('<p><ruby>東<rt>とう</rt>京<rt>きょう</rt></ruby>に住む</p>')).toBe('東京(とうきょう)に住む');
    // the fallback parentheses are not doubled
    expect(md('<p><ruby>漢字<rp>(</rp><rt>かんじ</rt><rp>)</rp></ruby>を書く</p>')).toBe('漢字(かんじ)を書く');
    // an `<rb>` base, whitespace of the source, markup inside (text kept)
    expect(md('<p>The <ruby>\n  <rb>明日</rb>\n  <rt>あした</rt>\n</ruby> and <ruby><em>今</em></ruby>.</p>')).toBe(
      'The 明日(あした) and 今.',
    );
    // markdown characters in it are escaped like any text
    expect(md('<p><ruby>*a*<rt>b</rt></ruby></p>')).toBe('\\*a\\*(b)');
  });

  it('keeps a ruby as HTML in raw-HTML mode', () => {
    expect(htmlToMarkdown('<p><ruby>東<rt>とう</rt></ruby></p>', { rawHtml: true })).toBe(
      '<ruby>東<rt>とう</rt></ruby>',
    );
  });
});
