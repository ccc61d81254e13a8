import render from 'dom-serializer';
import { isTag, isText, type AnyNode, type Element, type ParentNode } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';

import { MAX_DEPTH, parseHtml } from './parse.js';
import { elements } from './walk.js';

/** Type, name, data and attributes of every node, and whether every parent/sibling link is right. */
function shape(root: ParentNode): string {
  const out: string[] = [];
  const visit = (node: AnyNode, depth: number): void => {
    const n = node as AnyNode & { name?: string; data?: string; attribs?: Record<string, string> };
    const linked = (node.prev?.next ?? node) === node && (node.next?.prev ?? node) === node;
    out.push(
      `${' '.repeat(depth)}${n.type} ${n.name ?? ''} ${JSON.stringify(n.data ?? n.attribs)}${linked ? '' : ' !'}`,
    );
    if ('children' in node) for (const c of node.children) visit(c, depth + 1);
  };
  for (const c of root.children) visit(c, 0);
  return out.join('\n');
}

/** Nesting depth of the deepest node (children of the document are at 1). */
function depthOf(root: ParentNode): number {
  let max = 0;
  const stack: [AnyNode, number][] = root.children.map((c) => [c, 1]);
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    max = Math.max(max, depth);
    if ('children' in node) for (const c of node.children) stack.push([c, depth + 1]);
  }
  return max;
}

const TRICKY = [
  '<!DOCTYPE html><html><head><title>T &amp; t</title></head><body><p>a<b>b</p>c</body></html>',
  '<ul><li>1<li>2</ul><dl><dt>t<dd>d</dl><table><tr><td>x<td>y<tr><th>z</table>',
  '<p>one<div>two</div></p><h1>h<h2>i</h2></h1></br></p>',
  '<form id=a><input name=q><form id=b><button>go</button></form></form><select><option>1<option>2</select>',
  '<svg viewBox="0 0 1 1"><clipPath id=c><path d="M0"/></clipPath><foreignObject><p>html <image src=x></foreignObject><image href=y></svg><image src=z>',
  '<math><mi>x</mi><![CDATA[ a<b ]]></math><![CDATA[ not in foreign ]]><!-- comment --><?xml version="1.0"?>',
  '<div a=1 A=2 __proto__=x data-x="&lt;&quot;" b>dup attributes, entities &eacute; &#x1F600; &notanentity;</div>',
  '<script>if (a < b) document.write("<p>")</script><style>p > a {}</style><textarea><b>raw</b></textarea>',
  '<a href=1>one<a href=2>two</a><rt>r<rp>p</rp></rt>text after</body></html>trailing<p>after html',
  '<![CDATA[' + 'unclosed cdata '.repeat(20) + '> then <p>a paragraph</p>',
];

describe('parseHtml', () => {
  it('builds the same tree as htmlparser2 parseDocument', () => {
    for (const html of TRICKY) {
      const expected = parseDocument(html, {
        decodeEntities: true,
        lowerCaseTags: true,
        lowerCaseAttributeNames: true,
      });
      const actual = parseHtml(html);
      expect(shape(actual), html).toBe(shape(expected));
      expect(render(actual), html).toBe(render(expected));
    }
  });

  it(`nests elements at most ${MAX_DEPTH} deep, keeping deeper elements and text in document order`, () => {
    const depth = 2 * MAX_DEPTH;
    let html = '';
    for (let i = 1; i <= depth; i++) html += `<div id="d${i}">t${i} `;
    html += '<b>deepest</b>';
    html += '</div>'.repeat(depth) + '<p>after</p>';
    const document = parseHtml(html);
    expect(depthOf(document)).toBe(MAX_DEPTH + 1); // the cap's children are leaves

    // the element at the cap holds every deeper element as a child, with its attributes, in document order
    const all = [...elements(document)];
    const capped = all.find((el) => el.attribs.id === `d${MAX_DEPTH}`)!;
    const below = capped.children.filter((c): c is Element => isTag(c));
    expect(below.map((el) => el.attribs.id ?? el.name)).toEqual([
      ...Array.from({ length: depth - MAX_DEPTH }, (_, i) => `d${MAX_DEPTH + 1 + i}`),
      'b',
    ]);
    // no text is lost, and it reads in the same order as the page
    const text = render(document).replace(/<[^>]+>/g, '');
    expect(text).toBe(Array.from({ length: depth }, (_, i) => `t${i + 1} `).join('') + 'deepestafter');
    // past the deep part, nesting is back to normal
    expect(document.children.at(-1)).toMatchObject({ name: 'p' });
  });

  it('leaves trees under the cap untouched', () => {
    const html = '<div>'.repeat(MAX_DEPTH - 1) + 'x' + '</div>'.repeat(MAX_DEPTH - 1);
    expect(depthOf(parseHtml(html))).toBe(MAX_DEPTH);
    expect(render(parseHtml(html))).toBe(html);
  });

  it('parses 200,000 unclosed divs into a flat run under the cap, every div and its text kept', () => {
    const count = 200_000;
    const document = parseHtml('<div>x'.repeat(count));
    expect(depthOf(document)).toBe(MAX_DEPTH + 1);
    let divs = 0;
    let xs = 0;
    for (const el of elements(document)) {
      divs++;
      for (const c of el.children) if (isText(c)) xs++;
    }
    expect(divs).toBe(count);
    expect(xs).toBe(count);
  });

  it('gives every parent its own children array, exactly its children, each pointing back to it', () => {
    const deep = '<div>'.repeat(MAX_DEPTH + 3) + 'x<b>y</b>z' + '<p>a<p>b';
    for (const html of [...TRICKY, deep, '<div><br><img></div><i></i>', 'text only']) {
      const document = parseHtml(html);
      const arrays = new Set<AnyNode[]>();
      const parents: ParentNode[] = [document, ...elements(document)];
      for (const parent of parents) {
        expect(arrays.has(parent.children), html).toBe(false);
        arrays.add(parent.children);
        parent.children.forEach((child, i) => {
          expect(child.parent, html).toBe(parent);
          expect(child.prev, html).toBe(parent.children[i - 1] ?? null);
          expect(child.next, html).toBe(parent.children[i + 1] ?? null);
        });
      }
      // a reader may edit one parent's children without touching another's
      const [first, second] = parents.filter((p) => p.children.length === 0);
      if (first && second) {
        first.children.push(document.children[0]!);
        expect(second.children).toHaveLength(0);
      }
    }
  });
});

describe('parseHtml of a document cut off inside a tag', () => {
  it('drops the unfinished tag, as a browser does, and keeps everything before it', () => {
    const cases: [string, string][] = [
      ['<div><p>text <a href="/x" target="_blank"', '<div><p>text </p></div>'],
      ['<div><p>text <a href="/x', '<div><p>text </p></div>'],
      ['<div><p>text <a', '<div><p>text </p></div>'],
      ['<div><p>text <img src="a.png" alt="b', '<div><p>text </p></div>'],
      ['<svg><g><path d="M0', '<svg><g/></svg>'],
      ['<a href="/x"', ''],
      ['<div><p>text</di', '<div><p>text</p></div>'],
    ];
    for (const [html, tree] of cases) expect(render(parseHtml(html)), html).toBe(tree);
  });
});
