// After the walk: the page's one `<main>` and the body of the page's one item (an article's, a product's) narrow the
// chosen container.
import { isTag, type AnyNode, type Element, type ParentNode } from 'domhandler';

import { looksLikeItemBody } from './hints.js';
import type { Measures } from './measure.js';

/** Share of the page's prose that its single `<main>` must hold to be preferred over a higher container. */
export const MAIN_PROSE_SHARE = 0.2;

/** The page's one `<main>` (or `role="main"`) element; null when there is none or several. */
export function findMain(root: ParentNode): Element | null {
  let found: Element | null = null;
  const stack: AnyNode[] = [...root.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    if (node.name === 'main' || node.attribs['role'] === 'main') {
      if (found) return null;
      found = node;
      continue;
    }
    for (const c of node.children) stack.push(c);
  }
  return found;
}

export function totalProse(root: ParentNode, measures: Measures): number {
  let n = 0;
  for (const c of root.children) if (isTag(c)) n += measures.get(c)?.prose ?? 0;
  return n;
}

/** Share of the container's prose that its item body must hold to be the container instead. */
const ITEM_BODY_PROSE_SHARE = 0.5;

/** Other item bodies beside it (teaser excerpts) hold at most this share of its prose; more is a thread or a grid. */
const OTHER_BODIES_SHARE = 0.1;

/**
 * The element under `container` that names itself the body of the page's item (an article or post:
 * `itemprop="articleBody"`, `entry-content`, `article__body`; a product: `product__description`) when it holds most
 * of the container's prose and other such bodies beside it are small (a teaser's excerpt); null when there is none,
 * or several of a size (a thread, a grid of post cards).
 */
export function findItemBody(container: Element, measures: Measures): Element | null {
  let found: Element | null = null;
  let foundProse = 0;
  let others = 0;
  const stack: AnyNode[] = [...container.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    if (looksLikeItemBody(node)) {
      const p = measures.get(node)?.prose ?? 0;
      if (p > foundProse) {
        others += foundProse;
        found = node;
        foundProse = p;
      } else others += p;
      continue;
    }
    for (const c of node.children) stack.push(c);
  }
  const prose = measures.get(container)?.prose ?? 0;
  return found && foundProse >= ITEM_BODY_PROSE_SHARE * prose && others <= OTHER_BODIES_SHARE * foundProse
    ? found
    : null;
}
