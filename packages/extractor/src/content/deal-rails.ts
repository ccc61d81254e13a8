// Rails of links to other sites after a story: "Today's deals from our partners", "Sponsored", "Offers from around
// the web", whatever their label says. Read from structure: a block after the story made of repeated items, each a
// link to another host with a short mark beside it ("Ad", "Paid content", the shop's name). A list of bare links to
// other sites ("Further reading", "Links", a resource list) stays: its items carry no mark, and the references keep
// them. A roundup of deals whose list is its content stays too: the story before the rail must outweigh it.
import { isTag, type Element } from 'domhandler';

import { elements } from '../dom/walk.js';
import type { Measure, Measures } from './measure.js';
import { isOwnSite, linkUrl, type PageAddress } from './site-links.js';
import { repeatsItems } from './rail-items.js';
import { blocksAfterStory } from './story-end.js';
import type { Doomed } from './trace.js';

/** A rail holds at least this many links to other sites. */
const MIN_DEALS = 3;
/**
 * Unlinked text beside each item's link: some (a mark, a price, the shop's name), and at most this (not a description).
 */
const MAX_MARK = 40;

/**
 * Drops rails of links to other sites in `container` after its story: blocks, after 100 of the story's prose and
 * holding less text than it, whose items (3+, but for one short label) are each a link to another host with a mark
 * of 1-40 other characters beside it, when what follows the first rail (outside the rails and blocks already
 * dropped) holds less prose than that. Does nothing without the page's address.
 */
export function dropDealRails(
  container: Element,
  measures: Measures,
  address: PageAddress | undefined,
  doomed: Doomed,
): void {
  if (!address) return;
  // links to other sites: how many under each element, and their text
  const count = new Map<Element, number>();
  const linkText = new Map<Element, number>();
  for (const a of elements(container)) {
    if (a.name !== 'a') continue;
    const href = a.attribs['href'];
    const url = href ? linkUrl(href, address) : null;
    if (!url || isOwnSite(url, address)) continue;
    const chars = measures.get(a)?.text ?? 0;
    for (let p: Element | null = a; p && isTag(p); p = p.parent as Element | null) {
      count.set(p, (count.get(p) ?? 0) + 1);
      linkText.set(p, (linkText.get(p) ?? 0) + chars);
      if (p === container) break;
    }
  }
  if ((count.get(container) ?? 0) < MIN_DEALS) return;
  const rails = blocksAfterStory(
    container,
    measures,
    doomed,
    (el) => count.has(el),
    (el, m, proseBefore) =>
      (count.get(el) ?? 0) >= MIN_DEALS &&
      m.text <= proseBefore &&
      repeatsItems(el, count, measures, isDeal, MIN_DEALS),
  );
  for (const rail of rails) doomed.drop(rail, 'deal-rail');

  /** An item of a deal rail: links to other sites only, and a short mark beside them. */
  function isDeal(el: Element, m: Measure): boolean {
    const linked = linkText.get(el) ?? 0;
    return linked > 0 && m.link === linked && m.text > linked && m.text - linked <= MAX_MARK;
  }
}
