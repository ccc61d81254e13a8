import { isTag, type Element } from 'domhandler';
import { describe, expect, it } from 'vitest';

import { parseHtml } from '../dom/parse.js';
import { detachAll, elements } from '../dom/walk.js';
import { detachMeasured, measureTree, type Measure, type Measures } from './measure.js';

const PAGE = `<html><body>
  <header><nav><a href="/">Home</a> <a href="/news">News, today.</a></nav></header>
  <main><article>
    <h1>The title</h1>
    <p>A paragraph of the story, with <a href="/x">a link <b>in bold</b></a>, and more words after it.</p>
    <div class="share"><a href="/s"><span>Share</span></a> <a href="/t">Tweet</a></div>
    <p>Another paragraph; <em>emphasis <i>nested</i></em> and <a href="/y"><span>linked <em>text</em></span></a>.</p>
    <ul><li>One item.</li><li><a href="/z">Two</a> items</li><li>Three</li></ul>
  </article>
  <aside><p>Related: <a href="/r">a teaser</a>.</p></aside></main>
  <a href="/wrap"><div><p>Block inside a link, text here.</p><span>and inline</span></div></a>
  <footer><p>© The site, 2026.</p></footer>
</body></html>`;

/**
 * The measures of `root` and the elements under it as comparable rows, in document order: tag name and every field
 * but the element. Read before another pass over the same tree, which takes the elements' slots.
 */
const rows = (measures: Measures, root: Element) =>
  [root, ...elements(root)].flatMap((el) => {
    const m = measures.get(el);
    if (!m) return [];
    const { el: _el, ...fields } = m as typeof m & { el: unknown };
    return [[el.name, fields]];
  });

describe('Measures', () => {
  it("never answers another pass's measure, nor another element's, after a second pass takes the slots", () => {
    const doc = parseHtml(PAGE);
    const first = measureTree(doc);
    const before = new Map([...elements(doc)].map((el) => [el, first.get(el)]));
    const p = [...elements(doc)].find((el) => el.name === 'p')!;
    expect(first.get(p)!.text).toBeGreaterThan(20);
    // the tree changes, then is measured again: the elements after the removed one move in the pass's order
    const header = [...elements(doc)].find((el) => el.name === 'header')!;
    detachAll([header]);
    const second = measureTree(doc);
    const { el: _el, ...fields } = before.get(p) as Measure & { el: unknown };
    expect(second.get(p)).toMatchObject(fields);
    expect(second.get(p)).not.toBe(before.get(p));
    let missed = 0;
    for (const [el, m] of before) {
      const now = first.get(el);
      if (now === undefined) missed++;
      else expect(now).toBe(m);
    }
    expect(missed).toBeGreaterThan(0);
    // an element deleted reads as absent
    expect(second.delete(p)).toBe(true);
    expect(second.get(p)).toBeUndefined();
    expect(second.has(p)).toBe(false);
    expect(second.delete(p)).toBe(false);
  });
});

describe('detachMeasured', () => {
  it('leaves the measures measureTree gives the tree after, for every single element removed', () => {
    const html = (doc: ReturnType<typeof parseHtml>) =>
      doc.children.find((n): n is Element => isTag(n) && n.name === 'html')!;
    const count = [...elements(html(parseHtml(PAGE)))].length;
    expect(count).toBeGreaterThan(30);
    for (let i = 0; i < count; i++) {
      const root = html(parseHtml(PAGE));
      const measures = measureTree(root);
      const target = [...elements(root)][i]!;
      const parent = target.parent as Element;
      const parentMeasure = measures.get(parent)!;
      detachMeasured(root, [target], measures);
      expect(measures.has(target)).toBe(false);
      // the ancestors' entries are updated in place
      expect(measures.get(parent)).toBe(parentMeasure);
      expect(rows(measures, root)).toEqual(rows(measureTree(root), root));
    }
  });

  it('handles removals nested in other removals, siblings, and the root as a parent', () => {
    const doc = parseHtml(PAGE);
    const body = doc.children
      .find((n): n is Element => isTag(n) && n.name === 'html')!
      .children.find((n): n is Element => isTag(n) && n.name === 'body')!;
    const measures = measureTree(body);
    const all = [...elements(body)];
    const pick = (name: string, nth = 0) => all.filter((el) => el.name === name)[nth]!;
    const doomed = [
      pick('a', 1),
      pick('nav'),
      pick('b'),
      pick('li', 0),
      pick('li', 2),
      pick('footer'),
      pick('span', 2),
    ];
    const removedText = measures.get(pick('footer'))!.text;
    const totalBefore = measures.get(body)!.text;
    detachMeasured(body, doomed, measures);
    for (const el of doomed) expect(measures.has(el)).toBe(false);
    expect(measures.get(body)!.text).toBeLessThan(totalBefore - removedText + 1);
    expect(rows(measures, body)).toEqual(rows(measureTree(body), body));
  });
});
