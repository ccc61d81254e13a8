// The header of an item or a section (its title block), not the page's banner.
import { isTag, type Element } from 'domhandler';

import { elements, textOf } from '../dom/walk.js';
import { HEADING_TAGS, linksAway } from './tags.js';

/**
 * Whether `el` is the header of an item or a section rather than of the page (HTML-AAM maps a header scoped to
 * `article`, `section` or `main` to no landmark). Its nearest such ancestor decides: in an `<article>` a header holding
 * a heading, or only a linked title, is the item's title block (a teaser card's title and summary, a news front page's
 * bare headline link); in a `<section>` or `<main>` it must also
 * hold a paragraph (a section's heading and intro), as a bare heading there is often a shop's promo title. Outside
 * them all, a header holding only one heading below the page's title and no link is a heading of the text
 * (`<header><h2>3. Myth: eggs are bad</h2></header>`). Other headers (a forum post's "Posted by" line, a byline row)
 * stay chrome.
 */
export function isItemHeader(el: Element): boolean {
  if (el.name !== 'header') return false;
  if (isSectionHeading(el)) return true;
  // the nearest sectioning ancestor decides whose header this is
  let scope = '';
  for (let p = el.parent; p && isTag(p) && !scope; p = p.parent) {
    if (p.name === 'article' || p.name === 'section' || p.name === 'main') scope = p.name;
  }
  if (!scope) return false;
  if (scope === 'article' && isLinkedTitle(el)) return true;
  let heading = false;
  let para = false;
  for (const node of elements(el)) {
    if (HEADING_TAGS.has(node.name)) heading = true;
    if (node.name === 'p') para = true;
  }
  return heading && (scope === 'article' || para);
}

/** Words of an item's title written as a bare link: a headline, not a member's name or a "Read more". */
const MIN_TITLE_WORDS = 3;

/**
 * Whether the header's whole text is one link to another page of three words or more: an item's title set as a bare
 * link (`<article><header><a href="/news/x">Budgie 10.10.2 brings …</a></header>`), where other sites put a heading.
 */
function isLinkedTitle(el: Element): boolean {
  let link: Element | null = null;
  for (const node of elements(el)) {
    if (node.name !== 'a') continue;
    if (link) return false;
    link = node;
  }
  if (!link || !linksAway(link)) return false;
  const text = textOf(el);
  return textOf(link) === text && text.split(/\s+/).length >= MIN_TITLE_WORDS;
}

/** What follows a heading in the text's flow: a paragraph, a list, a table. */
const FLOW_TAGS: ReadonlySet<string> = new Set(['p', 'ul', 'ol', 'dl', 'table']);

/** Elements that a header holding only a section's heading may hold (the heading's own inline markup). */
const SECTION_HEADING_ELEMENTS = 12;

/** Characters of a header that holds only a section's heading. */
const SECTION_HEADING_MAX = 200;

/**
 * Whether the header holds only one heading below the page's title (`<header><h2>3. Myth: eggs are bad</h2></header>`)
 * and no link, with the section's text after it: a heading of the text's flow, which themes wrap in a header.
 */
function isSectionHeading(el: Element): boolean {
  let heading: Element | null = null;
  let seen = 0;
  for (const node of elements(el)) {
    // a heading's wrapper is small; the cap keeps nested headers from being read again at each level
    if (++seen > SECTION_HEADING_ELEMENTS || node.name === 'a' || node.name === 'h1' || node.name === 'nav')
      return false;
    if (HEADING_TAGS.has(node.name)) {
      if (heading) return false;
      heading = node;
    }
  }
  if (!heading) return false;
  const text = textOf(heading);
  if (text.length === 0 || text.length > SECTION_HEADING_MAX || textOf(el) !== text) return false;
  // the section's text follows in the same parent
  let next = el.next;
  while (next && !isTag(next)) next = next.next;
  return next !== null && FLOW_TAGS.has(next.name);
}
