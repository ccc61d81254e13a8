// Lists of links that the text announces ("... they are still worth looking into:"): part of the text, not a menu.
import { isTag, type Element } from 'domhandler';

import { SubtreeMemo } from '../dom/subtree-memo.js';
import { previousElement, textOf } from '../dom/walk.js';
import type { Measures } from './measure.js';

/** The announcing sentence holds at least this many words ("Related articles:" is a label, not a sentence). */
const MIN_WORDS = 6;
/** ...and at most this many characters. */
const MAX_LEAD_IN = 400;
/** A shorter lead-in of this many words announces the list when it is not a furniture label ("Related posts:"). */
const MIN_SHORT_WORDS = 2;

/**
 * Whether the list's previous sibling is a paragraph of the text that ends with a colon and announces it: a sentence
 * of six words or more, mostly not links, or a shorter lead-in of two words or more that `isLabel` does not take for
 * the label of furniture ("Buying options:" announces a list, "Related posts:" labels one).
 */
export function isAnnouncedList(
  list: Element,
  measures: Measures,
  isLabel: (text: string) => boolean = () => true,
): boolean {
  const prev = previousElement(list);
  if (!prev || prev.name !== 'p') return false;
  const m = measures.get(prev);
  if (!m || m.text === 0 || m.text > MAX_LEAD_IN || m.link >= 0.5 * m.text) return false;
  const text = textOf(prev);
  if (!text.endsWith(':')) return false;
  const words = text.split(' ').length;
  // a short lead-in ("Buying options:", "Here's a selection:") announces the list unless it names furniture
  return words >= MIN_WORDS || (words >= MIN_SHORT_WORDS && !isLabel(text.slice(0, -1).trim()));
}

/**
 * Which wrappers hold a list that their own text announces (`<div><h3>Other movers</h3><p>While these did not make
 * our top list, they are still worth looking into:</p><ul>…</ul></div>`): such a wrapper is not a link list as a
 * whole, and its list is judged on its own. Each element is read once however many nested wrappers are asked about
 * (the cleaning asks again at every level it enters, and a chain of link-list wrappers around one announced list
 * must not cost its depth times its size). The tree must not change while the index is used.
 */
export class AnnouncedLists {
  /** Whether an element's descendants hold an announced list. */
  readonly #below: SubtreeMemo<boolean>;

  constructor(measures: Measures, isLabel?: (text: string) => boolean) {
    const announced = (c: Element) => (c.name === 'ul' || c.name === 'ol') && isAnnouncedList(c, measures, isLabel);
    this.#below = new SubtreeMemo<boolean>((el, valueOf) =>
      el.children.some((c) => isTag(c) && (valueOf(c) || announced(c))),
    );
  }

  /** Whether `wrapper`, a `<div>`, holds a `<ul>` or `<ol>` that `isAnnouncedList` takes for announced. */
  holds(wrapper: Element): boolean {
    return wrapper.name === 'div' && this.#below.get(wrapper);
  }
}
