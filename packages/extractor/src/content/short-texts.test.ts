import { isTag, type Element } from 'domhandler';
import { describe, expect, it } from 'vitest';

import { parseHtml } from '../dom/parse.js';
import { elements, textOf } from '../dom/walk.js';
import { measureTree } from './measure.js';
import { ShortTexts } from './short-texts.js';

describe('ShortTexts', () => {
  it('gives every element the text textOf gives, short or long, whitespace and all', () => {
    const html = `<body><main>
      <div class="toggle"><button aria-expanded="false">  <span>Show
      </span></button><a href="#top"> Back   to <b>top</b> </a></div>
      <p>A paragraph of the story that is longer than the limit of forty visible characters, with <a href="/x">a link</a>.</p>
      <ul><li>  One </li><li>Two<br>lines</li></ul>
    </main></body>`;
    const doc = parseHtml(html);
    const body = doc.children.find((n): n is Element => isTag(n))!;
    const texts = new ShortTexts(measureTree(body), 40);
    const all = [...elements(body)];
    expect(all.length).toBeGreaterThan(8);
    // asked from the innermost out and from the outermost in: the memo answers the same either way
    for (const el of [...all].reverse()) expect(texts.get(el)).toBe(textOf(el));
    const again = new ShortTexts(measureTree(body), 40);
    for (const el of all) expect(again.get(el)).toBe(textOf(el));
  });

  it('answers every level of a chain of nested toggles around one short label, deeper than a direct read goes', () => {
    const depth = 200;
    const doc = parseHtml(
      `<body><main>${'<button aria-expanded="false">\n  <span>'.repeat(depth)} Is  it? ${'</span> </button>'.repeat(depth)}</main></body>`,
    );
    const body = doc.children.find((n): n is Element => isTag(n))!;
    const texts = new ShortTexts(measureTree(body), 40);
    const chain = [...elements(body)].filter((el) => el.name === 'button' || el.name === 'span');
    expect(chain).toHaveLength(2 * depth);
    // innermost first, as the memo fills from the bottom; then the outermost, which reuses every level below
    for (const el of [...chain].reverse()) expect(texts.get(el)).toBe('Is it?');
    expect(texts.get(chain[0]!)).toBe(textOf(chain[0]!));
  });
});
