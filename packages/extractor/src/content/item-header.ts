// A `<header>` inside an `<article>` that holds a heading: the item's own title block, not the page's banner.
import { isTag, type AnyNode, type Element } from 'domhandler';

import { HEADING_TAGS } from './tags.js';

/**
 * Whether `el` is the header of an item rather than of the page: a `<header>` inside an `<article>` that holds a
 * heading (a teaser card's or a post's title; HTML-AAM maps such a header to no landmark at all). Other headers
 * inside articles (a forum post's "Posted by" line, a byline row) stay chrome.
 */
export function isItemHeader(el: Element): boolean {
  if (el.name !== 'header') return false;
  let inArticle = false;
  for (let p = el.parent; p && isTag(p); p = p.parent) {
    if (p.name === 'article') {
      inArticle = true;
      break;
    }
  }
  if (!inArticle) return false;
  const stack: AnyNode[] = [...el.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    if (HEADING_TAGS.has(node.name)) return true;
    for (const c of node.children) stack.push(c);
  }
  return false;
}
