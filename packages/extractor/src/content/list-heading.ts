// A list page's heading: its one `<h1>` just above the list, table or grid of items the container walk chose.
import { isTag, type Element, type ParentNode } from 'domhandler';

import type { SubtreeMemo } from '../dom/subtree-memo.js';
import { contains, elements } from '../dom/walk.js';
import { isGridContainer } from './item-grids.js';
import type { Measures } from './measure.js';

/** Elements that are a list of items by their tag. */
const LIST_TAGS: ReadonlySet<string> = new Set(['ul', 'ol', 'dl', 'table']);

/** Text (characters) between the heading and the list beyond which the heading heads something else. */
const MAX_BETWEEN = 300;

/**
 * The page's one `<h1>` when the container is a list (a list, a table, a grid of item cards) and the heading comes
 * just before it, in its ancestors' earlier siblings below `<body>`, with little text between besides the intro
 * paragraphs `lede` that come with the list (at most `MAX_BETWEEN` characters: a filter bar, a date): "New arrivals"
 * above the new arrivals, a thread's title above its list of posts. The walk to the container follows the child
 * holding most of the text, so it leaves such a heading beside the list. A story's title beside its body stays out
 * (the references leave it out; `metadata.title` has it). Null otherwise: a page of several `<h1>`, a heading that is
 * mostly a link (a logo), one that heads another block.
 */
export function findListHeading(
  body: ParentNode,
  container: Element,
  measures: Measures,
  grids: SubtreeMemo<number> | undefined,
  lede: readonly Element[],
): Element | null {
  const isList = LIST_TAGS.has(container.name) || (grids !== undefined && isGridContainer(container, measures, grids));
  if (!isList) return null;
  const h1 = onlyH1(body);
  if (!h1) return null;
  const m = measures.get(h1);
  if (!m || m.text === 0 || m.link >= 0.5 * m.text) return null;
  // the intro paragraphs coming with the list are under the heading too: their text does not count as between
  let between = -textOfAll(lede, measures);
  for (let node: Element = container; isTag(node.parent!) && node.parent.name !== 'body'; node = node.parent) {
    for (let prev = node.prev; prev; prev = prev.prev) {
      if (!isTag(prev)) continue;
      if (prev === h1) return h1;
      if (contains(prev, h1)) return textAfter(prev, h1, measures) + between <= MAX_BETWEEN ? h1 : null;
      between += measures.get(prev)?.text ?? 0;
      if (between > MAX_BETWEEN) return null;
    }
  }
  return null;
}

function textOfAll(els: readonly Element[], measures: Measures): number {
  let text = 0;
  for (const el of els) text += measures.get(el)?.text ?? 0;
  return text;
}

/** The one `<h1>` under `root`, or null when it has none or several. */
function onlyH1(root: ParentNode): Element | null {
  let found: Element | null = null;
  for (const el of elements(root)) {
    if (el.name !== 'h1') continue;
    if (found) return null;
    found = el;
  }
  return found;
}

/** Characters of text in `root` after `h1` (the siblings that follow it and its ancestors up to `root`). */
function textAfter(root: Element, h1: Element, measures: Measures): number {
  let text = 0;
  for (let node: Element = h1; node !== root && isTag(node.parent!); node = node.parent) {
    for (let next = node.next; next; next = next.next) if (isTag(next)) text += measures.get(next)?.text ?? 0;
  }
  return text;
}
