// The header of an item or a section (its title block), not the page's banner.
import { isTag, type Element } from 'domhandler';

import { elements } from '../dom/walk.js';
import { HEADING_TAGS } from './tags.js';

/**
 * Whether `el` is the header of an item or a section rather than of the page (HTML-AAM maps a header scoped to
 * `article`, `section` or `main` to no landmark). Its nearest such ancestor decides: in an `<article>` a header holding
 * a heading is the item's title block (a teaser card's title and summary); in a `<section>` or `<main>` it must also
 * hold a paragraph (a section's heading and intro), as a bare heading there is often a shop's promo title. Other
 * headers (a forum post's "Posted by" line, a byline row) stay chrome.
 */
export function isItemHeader(el: Element): boolean {
  if (el.name !== 'header') return false;
  // the nearest sectioning ancestor decides whose header this is
  let scope = '';
  for (let p = el.parent; p && isTag(p) && !scope; p = p.parent) {
    if (p.name === 'article' || p.name === 'section' || p.name === 'main') scope = p.name;
  }
  if (!scope) return false;
  let heading = false;
  let para = false;
  for (const node of elements(el)) {
    if (HEADING_TAGS.has(node.name)) heading = true;
    if (node.name === 'p') para = true;
  }
  return heading && (scope === 'article' || para);
}
