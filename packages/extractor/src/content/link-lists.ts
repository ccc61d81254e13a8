// Lists of short links inside the container: tables of contents and tag clouds, unless together they are the page.
import { isTag, type Element } from 'domhandler';

import { SubtreeMemo } from '../dom/subtree-memo.js';
import type { Measure } from './measure.js';

/** Share of the container above which its lists of short links are its content (an index, a category page). */
export const LINK_LISTS_MAX_SHARE = 0.5;

/** A list of short links (table of contents, tag cloud, "more" links) that is not the bulk of the container. */
export function isLinkList(el: Element, m: Measure, total: number, links: LinkCounts): boolean {
  if (m.link >= 0.7 * m.text && m.text < 0.3 * total && (el.name === 'ul' || el.name === 'ol' || el.name === 'div')) {
    const count = links.count(el);
    return count >= 3 && m.link / count < 30;
  }
  return false;
}

/**
 * The links under each element (an `<a>` counts once, what is in it not at all), each element counted once however
 * many wrappers ask: the cleaning enters wrappers that hold an announced list, and asks again at each level of a
 * chain of them. The tree must not change while it is used.
 */
export class LinkCounts {
  readonly #memo = new SubtreeMemo<number>(
    (el, valueOf) => {
      let n = 0;
      for (const c of el.children) if (isTag(c)) n += valueOf(c);
      return n;
    },
    (el) => (el.name === 'a' ? 1 : undefined),
  );

  count(root: Element): number {
    return this.#memo.get(root);
  }
}
