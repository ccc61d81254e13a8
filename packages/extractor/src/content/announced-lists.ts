// Lists of links that the text announces ("... they are still worth looking into:"): part of the text, not a menu.
import { isTag, isText, type Element } from 'domhandler';

import { elements, textOf } from '../dom/walk.js';
import type { Measure } from './measure.js';

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
  measures: Map<Element, Measure>,
  isLabel: (text: string) => boolean = () => true,
): boolean {
  let prev = list.prev;
  while (prev && !isTag(prev)) {
    if (isText(prev) && prev.data.trim() !== '') return false;
    prev = prev.prev;
  }
  if (!prev || !isTag(prev) || prev.name !== 'p') return false;
  const m = measures.get(prev);
  if (!m || m.text === 0 || m.text > MAX_LEAD_IN || m.link >= 0.5 * m.text) return false;
  const text = textOf(prev);
  if (!text.endsWith(':')) return false;
  const words = text.split(' ').length;
  // a short lead-in ("Buying options:", "Here's a selection:") announces the list unless it names furniture
  return words >= MIN_WORDS || (words >= MIN_SHORT_WORDS && !isLabel(text.slice(0, -1).trim()));
}

/**
 * Whether a wrapper holds a list that its own text announces (`<div><h3>Other movers</h3><p>While these did not make
 * our top list, they are still worth looking into:</p><ul>…</ul></div>`): the wrapper is then not a link list as a
 * whole, and its list is judged on its own.
 */
export function holdsAnnouncedList(
  wrapper: Element,
  measures: Map<Element, Measure>,
  isLabel?: (text: string) => boolean,
): boolean {
  if (wrapper.name !== 'div') return false;
  for (const el of elements(wrapper)) {
    if ((el.name === 'ul' || el.name === 'ol') && isAnnouncedList(el, measures, isLabel)) return true;
  }
  return false;
}
