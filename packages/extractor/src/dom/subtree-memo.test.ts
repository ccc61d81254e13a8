import { isTag, type Element } from 'domhandler';
import { describe, expect, it } from 'vitest';

import { parseHtml } from './parse.js';
import { SubtreeMemo } from './subtree-memo.js';
import { elements } from './walk.js';

describe('SubtreeMemo', () => {
  it("computes each element's value from its children's, stops at leaves, and reads each element once", () => {
    const document = parseHtml(
      '<body><div id="a"><p>x</p><a href="/1"><span><a href="/2">nested</a></span></a><div id="b"><a href="/3">3</a></div></div></body>',
    );
    let combined = 0;
    const links = new SubtreeMemo<number>(
      (el, valueOf) => {
        combined++;
        return el.children.reduce((n, c) => n + (isTag(c) ? valueOf(c) : 0), 0);
      },
      (el) => (el.name === 'a' ? 1 : undefined),
    );
    const byId = (id: string): Element => [...elements(document)].find((el) => el.attribs['id'] === id)!;
    expect(links.get(byId('b'))).toBe(1);
    const before = combined;
    // the outer wrapper reuses what was computed for #b and reads nothing inside the first link
    expect(links.get(byId('a'))).toBe(2);
    expect(combined - before).toBe(2);
    expect(links.get(byId('a'))).toBe(2);
    expect(combined - before).toBe(2);
  });

  it('answers every level of a chain of 400 wrappers reading each element once', () => {
    const document = parseHtml(`<body>${'<div>'.repeat(400)}<h2>Title</h2>${'</div>'.repeat(400)}</body>`);
    let combined = 0;
    const headed = new SubtreeMemo<boolean>((el, valueOf) => {
      combined++;
      return el.name === 'h2' || el.children.some((c) => isTag(c) && valueOf(c));
    });
    const chain = [...elements(document)].filter((el) => el.name === 'div');
    // asked from the innermost wrapper out, each element is still read once
    for (const el of [...chain].reverse()) expect(headed.get(el)).toBe(true);
    expect(combined).toBe(chain.length + 1);
  });
});
