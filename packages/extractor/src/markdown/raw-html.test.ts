import { describe, expect, it } from 'vitest';

import { renderMarkdown } from '../../../../bench/lib/markdown-roundtrip.ts';
import { parseHtml } from '../dom/parse.js';
import { htmlToMarkdown } from './index.js';

const raw = (html: string) => htmlToMarkdown(html, { rawHtml: true });

describe('raw-HTML mode', () => {
  it('is off by default: elements markdown has no syntax for are not written as HTML', () => {
    const html = '<div class="note"><p>Read <u>this</u> and <del>that</del>.</p></div><x-card>card</x-card>';
    expect(htmlToMarkdown(html)).toBe('Read this and ~~that~~.\n\ncard');
    expect(htmlToMarkdown(html, { rawHtml: false })).toBe(htmlToMarkdown(html));
  });

  it('writes an element holding text as one HTML block, and markdown between the tags of one holding blocks', () => {
    expect(raw('<div class="note">Read <a href="/x">*this*</a></div>')).toBe(
      '<div class="note">Read <a href="/x">*this*</a></div>',
    );
    expect(raw('<div class="note"><p>Read <em>this</em></p><ul><li>a</li></ul></div>')).toBe(
      '<div class="note">\n\nRead *this*\n\n- a\n\n</div>',
    );
  });

  it('writes inline elements as inline HTML around markdown content', () => {
    expect(raw('<p>Read <u>this</u>, <del><em>not</em> that</del>, <x-tag a="1">x</x-tag>.</p>')).toBe(
      'Read <u>this</u>, <del>*not* that</del>, <x-tag a="1">x</x-tag>.',
    );
  });

  it('keeps a table GFM holds exactly as markdown, and writes the others as HTML', () => {
    expect(raw('<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>')).toBe(
      '| a | b |\n| --- | --- |\n| 1 | 2 |',
    );
    expect(raw('<table><tr><th colspan="2">a</th></tr><tr><td>1</td><td>2</td></tr></table>')).toBe(
      '<table><tr><th colspan="2">a</th></tr><tr><td>1</td><td>2</td></tr></table>',
    );
  });

  it('keeps empty elements and emphasis nested in its own kind', () => {
    expect(raw('<h2></h2><blockquote></blockquote><ul><li></li></ul><p><a href="/a"></a></p>')).toBe(
      '##\n\n>\n\n-\n\n[](/a)',
    );
    expect(raw('<p><strong><strong>foo</strong></strong> <em><em>bar</em></em></p>')).toBe('****foo**** *_bar_*');
  });

  it('sanitises like the html format, and drops event handlers and javascript: URLs', () => {
    const markdown = raw(
      '<div onclick="steal()" id="a"><script>alert(1)</script><style>p{}</style>' +
        '<a href=" java\tscript:alert(1)" onmouseover="x()">link</a><img src="x.png" onerror="x()"></div>' +
        '<p><x-a href="javascript:alert(1)">x</x-a></p><details><summary>More</summary><iframe src="/x"></iframe></details>',
    );
    expect(markdown).toBe(
      [
        '<div id="a"><a>link</a><img src="x.png"></div>',
        '<x-a>x</x-a>',
        '<details>',
        '<summary>More</summary>',
        '</details>',
      ].join('\n\n'),
    );
    expect(markdown).not.toMatch(/script|onclick|onerror|onmouseover|iframe/i);
  });

  it('keeps every HTML block one block for CommonMark: no blank line inside, a newline where the block needs one', () => {
    const html = '<div>code:<pre>a\n\nb</pre></div><x-note>\n\ntext\n\n</x-note>';
    const markdown = raw(html);
    expect(markdown).not.toMatch(/\n[ \t]*\n(?!<x-note>)/);
    expect(renderMarkdown(markdown)).toBe('<div>code:<pre>a\n&#10;b</pre></div>\n<x-note>\ntext\n</x-note>\n');
  });

  it('resolves URLs and removes base64 images in the HTML it writes, as in the markdown', () => {
    const markdown = htmlToMarkdown('<div><a href="b">x</a><img src="data:image/png;base64,AAAA"></div>', {
      rawHtml: true,
      baseUrl: 'https://example.com/a/',
      removeBase64Images: true,
    });
    expect(markdown).toBe('<div><a href="https://example.com/a/b">x</a><img src="&lt;Base64-Image-Removed&gt;"></div>');
  });

  it('gives the same markdown for a string and for a DOM', () => {
    const html = '<div><p>a <u>b</u></p></div><div>c <del>d</del></div><table><tr><td rowspan="2">x</td></tr></table>';
    expect(htmlToMarkdown(parseHtml(html), { rawHtml: true })).toBe(raw(html));
  });
});
