// Grids of item cards (a collection's products, a listing's courses or jobs): for the container walk, which must not
// leave a page's grid behind for a block of prose beside it (a category's description set below its products).
import { isTag, type AnyNode, type Element } from 'domhandler';

import { SubtreeMemo } from '../dom/subtree-memo.js';
import type { Measure, Measures } from './measure.js';
import { hasImage, linksAway, shapeOf } from './tags.js';

/** At least this many sibling items of one shape make a grid (a row of three is a teaser strip, not a page's grid). */
const MIN_ITEMS = 4;
/** An item holds at most this many characters: a name, a price, a line or two of description. */
const MAX_ITEM = 600;
/** An item's text has at least this many characters. */
const MIN_ITEM = 10;
/** The items are at least this share of their parent's text. */
const ITEM_SHARE = 0.6;

/**
 * For every element, the text of the item grids in its subtree: groups of four or more sibling items of one shape
 * (same tag and class), each 10 to 600 characters linking to another page and showing more than its link (a picture,
 * or text beside the link: a price, a date, a blurb), together most of their parent's text. A menu's items are links
 * alone, so a menu is no grid. Memoised in one post-order pass.
 */
export function itemGrids(measures: Measures): SubtreeMemo<number> {
  return new SubtreeMemo<number>((el, valueOf) => {
    let inside = 0;
    // children of one shape and an item's size, counted before any is read: most shapes are too few to be a grid
    const counts = new Map<string, number>();
    for (const c of el.children) {
      if (!isTag(c)) continue;
      inside += valueOf(c);
      const m = measures.get(c);
      if (!m || m.text < MIN_ITEM || m.text > MAX_ITEM) continue;
      const key = shapeOf(c);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const m = measures.get(el);
    if (!m) return inside;
    const items = new Map<string, { count: number; text: number }>();
    for (const c of el.children) {
      if (!isTag(c)) continue;
      const key = shapeOf(c);
      if ((counts.get(key) ?? 0) < MIN_ITEMS) continue;
      const cm = measures.get(c)!;
      if (cm.text < MIN_ITEM || cm.text > MAX_ITEM || !isItem(c, cm)) continue;
      const s = items.get(key) ?? { count: 0, text: 0 };
      s.count++;
      s.text += cm.text;
      items.set(key, s);
    }
    for (const s of items.values()) if (s.count >= MIN_ITEMS && s.text >= ITEM_SHARE * m.text) return m.text;
    return inside;
  });
}

/** An item links to another page and shows more than the link: a picture, or text of its own beside it. */
function isItem(item: Element, m: Measure): boolean {
  if (m.link === 0) return false;
  let away = false;
  const stack: AnyNode[] = [item];
  while (stack.length && !away) {
    const n = stack.pop()!;
    if (!isTag(n)) continue;
    if (n.name === 'a' && linksAway(n)) away = true;
    for (const c of n.children) stack.push(c);
  }
  return away && (hasImage(item) || m.text - m.link >= 0.1 * m.text);
}

/** Share of a container's text that its item grids hold when the container is a grid page (a listing, a collection). */
const GRID_PAGE_SHARE = 0.5;

/** Whether half or more of `container`'s text is item grids: the container is a listing's or a collection's grid. */
export function isGridContainer(container: Element, measures: Measures, grids: SubtreeMemo<number>): boolean {
  const g = grids.get(container);
  return g > 0 && g >= GRID_PAGE_SHARE * (measures.get(container)?.text ?? 0);
}
