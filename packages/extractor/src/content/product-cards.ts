// Rows of priced product cards beside a page's content: "Frequently bought together", "Customers also viewed",
// "Get everything you need" carousels on product pages, promoted products above a category's grid.
import { isTag, isText, type AnyNode, type Element } from 'domhandler';

import { textOf } from '../dom/walk.js';
import type { Measure, Measures } from './measure.js';
import { hasImage, linksAway, PICTURE_TAGS, shapeOf } from './tags.js';
import type { Doomed } from './trace.js';

/** A card holds at most this many characters: a product's name, its price, a rating. */
const MAX_CARD = 300;
/** A card's text has at least this many characters: a product's name (a colour swatch's "Black" is not one). */
const MIN_CARD = 15;
/** At least this many sibling cards of one shape make a row ("Frequently bought together" shows two). */
const MIN_CARDS = 2;
/** At most this many: a carousel of suggestions; a collection's grid (36 a page) holds more. */
const MAX_CARDS = 24;
/** The cards are at least this share of their parent's text. */
const CARD_SHARE = 0.6;
/** The row is a minor part of the container: where the cards are most of it, the page is a collection. */
const MAX_ROW_SHARE = 0.4;

/** The product's own price comes within this many characters of text from the start of the page's `<h1>`. */
const OFFER_REACH = 600;

/** A price: a currency sign next to a figure ($129.00, 79,99 €, £675). */
export const PRICE = /[$€£¥₹]\s?\d|\d\s?[€£]/;

/**
 * Drops rows of 2 to 24 sibling product cards of one shape (same tag and class), each a short block (15 to 300
 * characters) that shows a price and links to another page with a picture or mostly link text, together most of
 * their parent's text and under 40% of the container: recommendation carousels and bundles beside a product, not a
 * collection's grid (more cards, or most of the container, or `pageGrids`: the grid that stopped the container walk,
 * `item-grids.ts`). A card holding the page's `<h1>` is never one. Beside a product's own offer (`sellsOneItem`), a
 * card with a picture and its own buy button is one too, its picture unlinked. The caller skips declared articles,
 * whose card rows are teasers (`teasers.ts`).
 */
export function dropProductCardRows(
  container: Element,
  measures: Measures,
  total: number,
  doomed: Doomed,
  pageGrids: readonly Element[] = [],
): void {
  const skip = (el: Element): boolean => doomed.has(el) || pageGrids.includes(el);
  const bought = sellsOneItem(container, measures, skip);
  const stack: Element[] = [container];
  while (stack.length) {
    const el = stack.pop()!;
    const m = measures.get(el);
    if (!m || skip(el)) continue;
    if (
      el !== container &&
      m.text < MAX_ROW_SHARE * total &&
      m.text >= MIN_CARDS * MIN_CARD &&
      isCardRow(el, m, measures, bought)
    ) {
      doomed.drop(el, 'product-cards');
      continue;
    }
    for (const c of el.children) if (isTag(c)) stack.push(c);
  }
}

/**
 * Whether the container offers one item of its own: a price within `OFFER_REACH` characters of text from the start
 * of its first `<h1>`, outside any row of cards that show a price and a buy button (the product's title and its price;
 * a collection's title is followed by its cards' prices).
 */
function sellsOneItem(container: Element, measures: Measures, skip: (el: Element) => boolean): boolean {
  let after: string | null = null;
  const stack: AnyNode[] = [container];
  while (stack.length) {
    const n = stack.pop()!;
    if (isText(n)) {
      if (after === null) continue;
      after += n.data.trim();
      if (PRICE.test(after)) return true;
      if (after.length > OFFER_REACH) return false;
      continue;
    }
    if (!isTag(n) || skip(n)) continue;
    if (after === null && n.name === 'h1') after = '';
    else if (after !== null) {
      const m = measures.get(n);
      if (m && m.text >= MIN_CARDS * MIN_CARD && isCardRow(n, m, measures, true)) continue;
    }
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return false;
}

function isCardRow(el: Element, m: Measure, measures: Measures, bought: boolean): boolean {
  let shapes: Map<string, { cards: number; text: number }> | undefined;
  for (const c of el.children) {
    if (!isTag(c)) continue;
    const cm = measures.get(c);
    if (!cm || cm.text < MIN_CARD || cm.text > MAX_CARD) continue;
    if (!isProductCard(c, cm, bought)) continue;
    const key = shapeOf(c);
    shapes ??= new Map();
    const s = shapes.get(key) ?? { cards: 0, text: 0 };
    s.cards++;
    s.text += cm.text;
    shapes.set(key, s);
  }
  if (!shapes) return false;
  for (const s of shapes.values())
    if (s.cards >= MIN_CARDS && s.cards <= MAX_CARDS && s.text >= CARD_SHARE * m.text) return true;
  return false;
}

/**
 * A card shows a price and links away, with a picture inside a link, or a picture beside a link without text laid
 * over the card (named by its `aria-label`: the whole card is the link), or most of its text in links; no `<h1>`.
 * With `bought` (beside a product's own offer), a picture beside the card's own button (its "Add to cart") will do.
 */
function isProductCard(card: Element, m: Measure, bought: boolean): boolean {
  let away = false;
  let pictured = false;
  let overlaid = false;
  let image = false;
  let button = false;
  const stack: AnyNode[] = [card];
  while (stack.length) {
    const n = stack.pop()!;
    if (!isTag(n)) continue;
    if (n.name === 'h1') return false;
    if (PICTURE_TAGS.has(n.name)) image = true;
    if (n.name === 'button') button = true;
    if (n.name === 'a' && linksAway(n)) {
      away = true;
      if (hasImage(n)) pictured = true;
      else if (!textOf(n)) overlaid = true;
    }
    for (const c of n.children) stack.push(c);
  }
  // the price is read in the card's whole text: shops split it over elements (`<span>$</span><span>379</span>`)
  return (
    away &&
    (pictured || ((overlaid || (bought && button)) && image) || m.link >= 0.5 * m.text) &&
    PRICE.test(textOf(card))
  );
}
