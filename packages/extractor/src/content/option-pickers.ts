// Option pickers of a product on a page that is not a story: a colour's or a size's radio buttons, a protection plan's,
// a quantity stepper. Their controls are found before the prune step (which drops inputs); what is left of a picker
// after it, its label and its options' names ("Color: Black", "S M L XL", "Quantity"), goes when a price stands near.
import { isTag, isText, type Element, type ParentNode } from 'domhandler';

import { elements, textOf } from '../dom/walk.js';
import type { FormControls } from './form-controls.js';
import type { Measures } from './measure.js';
import { PRICE } from './product-cards.js';
import type { Doomed } from './trace.js';

/** A picker offers this many options at least (radio buttons of one name). */
const MIN_OPTIONS = 2;
/** What is left of a picker holds at most this many characters: a label and short option names. */
const MAX_PICKER = 200;
/** An option's name holds this many characters on average, at most ("Extra large", "3-Year Plan - $24.00"). */
const MAX_OPTION = 30;
/** Climbing from the controls' holder, a parent may add this much text: the picker's label ("Color:", "Size"). */
const LABEL_ROOM = 40;
/** The block around a picker where its price is looked for holds at most this many characters (a buy box). */
const MAX_BOX = 600;

/**
 * The option pickers of a page, by the element holding each one's controls (`controls`, read by `findFormControls`),
 * with its options counted (0 where they are not radio buttons of one name): each group of 2 or more radio buttons of
 * one name (the lowest element holding them all), each `role="radiogroup"`, each number field (`<input
 * type="number">`, `role="spinbutton"`: its parent). A `<select>` is not one: sort orders and currency menus are
 * selects, and the references keep some.
 */
export function findOptionPickers(controls: FormControls): Map<Element, number> {
  const out = new Map<Element, number>();
  const add = (holder: ParentNode | null, options: number): void => {
    if (holder && isTag(holder)) out.set(holder, Math.max(out.get(holder) ?? 0, options));
  };
  for (const el of controls.radioGroups) add(el, 0);
  for (const el of controls.numbers) add(el.parent, 1);
  for (const group of controls.radios.values()) if (group.length >= MIN_OPTIONS) add(lowestHolder(group), group.length);
  return out;
}

/** The lowest element holding every one of `els`. */
function lowestHolder(els: readonly Element[]): ParentNode | null {
  let holder: ParentNode | null = els[0]!.parent;
  for (const el of els) {
    while (holder && !holds(holder, el)) holder = holder.parent;
  }
  return holder;
}

/** Whether `el` is `holder` or under it. */
function holds(holder: ParentNode, el: Element): boolean {
  for (let p: ParentNode | null = el; p; p = p.parent) if (p === holder) return true;
  return false;
}

/**
 * Drops the option pickers inside `container` (the caller skips declared articles): from each holder of `pickers`,
 * the picker is the holder and the parents above it, below the container, that add at most a label (40 characters,
 * no link text: a card's linked title is no label; no price: the buy box's price is no label). It goes when it holds
 * text, at most 200 characters, its options' names are short (30 characters on average: a plan described in a
 * sentence is content), it holds no `<h1>`, and a price stands near it.
 */
export function dropOptionPickers(
  container: Element,
  measures: Measures,
  pickers: ReadonlyMap<Element, number>,
  doomed: Doomed,
): void {
  for (const [holder, options] of pickers) {
    let picker = holder;
    let m = measures.get(picker);
    if (!m || !holds(container, picker) || picker === container) continue;
    for (let p = picker.parent; p && isTag(p) && p !== container; p = p.parent) {
      const pm = measures.get(p);
      if (!pm || pm.text > m.text + LABEL_ROOM || pm.link > m.link || pricedBeside(p, picker)) break;
      picker = p;
      m = pm;
    }
    if (m.text === 0 || m.text > MAX_PICKER || doomed.has(picker)) continue;
    if (options > 0 && m.text > options * MAX_OPTION) continue;
    if (holdsTitle(picker) || !isPriced(picker, container, measures)) continue;
    doomed.drop(picker, 'option-picker');
  }
}

/**
 * Whether a price stands near `picker`: in the largest block around it (inside the container) of at most 600
 * characters. An option with a price is bought; a switch of a gallery's colour or a tab's panel is not.
 */
function isPriced(picker: Element, container: Element, measures: Measures): boolean {
  let box = picker;
  for (let p = picker.parent; p && isTag(p); p = p.parent) {
    if ((measures.get(p)?.text ?? Infinity) > MAX_BOX) break;
    box = p;
    if (p === container) break;
  }
  return PRICE.test(textOf(box));
}

/** Whether `parent` shows a price outside `child`: the buy box's price, not the picker's label. */
function pricedBeside(parent: Element, child: Element): boolean {
  for (const c of parent.children) {
    if (c === child) continue;
    if (isText(c) ? PRICE.test(c.data) : isTag(c) && PRICE.test(textOf(c))) return true;
  }
  return false;
}

/** Whether `picker` holds an `<h1>` (the product's name is never an option). */
function holdsTitle(picker: Element): boolean {
  for (const el of elements(picker)) if (el.name === 'h1') return true;
  return false;
}
