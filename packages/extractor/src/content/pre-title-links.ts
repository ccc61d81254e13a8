// Links above the page's title inside the chosen block: a breadcrumb ("Products › Compute"), a promotion bar
// ("1 million requests free per month"), a help line linked to a contact page, a "Back to tools" link. The title
// heading opens what the page is about; short linked blocks set above it point elsewhere. Read from structure only:
// the position against the `<h1>` and the share of link text, never from the words.
import type { Element } from 'domhandler';

import { elements } from '../dom/walk.js';
import { walkInOrder, type Measures } from './measure.js';
import type { Doomed } from './trace.js';

/**
 * A block of at least this much link text is a link block: a breadcrumb's separators are a few characters of it; a
 * line of text announcing its links ("(read my colleagues' write-ups first)") is more, and stays.
 */
const LINK_SHARE = 0.8;
/**
 * The title opens the block: at most this share of the container's text comes before it. Further down, the `<h1>` is
 * not the page's title (a wiki page's title set after its lead, a thread's heading below its first post).
 */
const MAX_BEFORE_SHARE = 0.15;

/**
 * Drops the blocks of `container` set before its first `<h1>` that are 80% link text or more, when the `<h1>` comes
 * within the first 15% of the container's text and is not itself a link (a card's title). A block with a line of its
 * own is judged whole (a link inside a sentence stays with it), and a block holding a picture stays (a featured item's
 * card, a ranking's badge). Unlinked lines above the title (an eyebrow, a kicker, a rating) stay: the references of
 * service and product pages keep them as often as not.
 */
export function dropPreTitleLinks(container: Element, measures: Measures, doomed: Doomed): void {
  const total = measures.get(container)?.text ?? 0;
  let title: Element | undefined;
  for (const el of elements(container)) {
    if (el.name === 'h1' && (measures.get(el)?.text ?? 0) > 0 && !doomed.has(el)) {
      title = el;
      break;
    }
  }
  // a linked `<h1>` titles a card, not the page
  if (!title || measures.get(title)!.link >= 0.5 * measures.get(title)!.text) return;
  const around = new Set<Element>();
  for (let p = title.parent; p && p !== container; p = p.parent) around.add(p as Element);
  const links: Element[] = [];
  let titleAt = -1;
  walkInOrder(container, measures, (el, m, before) => {
    if (titleAt >= 0) return true;
    if (el === title) {
      titleAt = before;
      return true;
    }
    if (el === container || around.has(el)) return false;
    if (doomed.has(el) || m.text === 0) return true;
    if (m.link >= LINK_SHARE * m.text && !holdsImage(el)) {
      links.push(el);
      return true;
    }
    // a block with a line of its own is judged whole: a link inside a sentence is the sentence's
    return m.own > 0;
  });
  if (titleAt < 0 || titleAt > MAX_BEFORE_SHARE * total) return;
  for (const el of links) doomed.drop(el, 'pre-title-links');
}

/** A linked picture with its title is a card of an item (a featured recipe, a ranking's badge), not a bar of links. */
function holdsImage(el: Element): boolean {
  if (el.name === 'img') return true;
  for (const e of elements(el)) if (e.name === 'img' || e.name === 'picture') return true;
  return false;
}
