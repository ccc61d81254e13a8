// Phone calls to action inside the text: a "tel:" link standing alone ("(800) 555-0100") or after a short lead-in
// ("Or call us directly 1-844-HOMEYOU"), the buttons of lead-generation templates, not the story.
import { isTag, type Element } from 'domhandler';

import { textOf } from '../dom/walk.js';
import type { Measures } from './measure.js';

/** A phone call to action holds at most this many characters, lead-in included. */
const MAX_PHONE_CTA = 60;

/** A lead-in before the number: "Call", "Or call us directly", "Call us today at", "Phone:". */
const LEAD_IN =
  /^(?:or )?(?:call|phone|tel|give us a call)(?: us)?(?: now| today| directly| toll[- ]free)?(?: at| on)?\W*$/i;

/** A link's text that is a phone number, with a lead-in or not: "(800) 555-0100", "Call: 1-844-HOMEYOU". */
const PHONE_TEXT = /^(?:(?:call|phone|tel)(?: us)?(?: now| today)?\W*)?[+(\d][\d\s().+\u2010-\u2013-]{5,}[\dA-Z]*$/i;

/** Tags of inline text: a link wrapped only in them still sits in the flow of a sentence. */
const PHRASING: ReadonlySet<string> = new Set([
  'a',
  'b',
  'strong',
  'i',
  'em',
  'u',
  's',
  'small',
  'mark',
  'font',
  'span',
  'sub',
  'sup',
  'cite',
  'q',
]);

/**
 * The block to drop for `link` when it is a phone call to action, or null: the block holding only the link (its
 * own wrappers: a button row, a list item), else the block holding only the link and a lead-in. A number inside a
 * sentence ("Call the clinic at 555-0100 to book a visit.") is the text and stays.
 */
export function phoneCallToAction(link: Element, measures: Measures, container: Element): Element | null {
  if (!/^tel:/i.test(link.attribs['href'] ?? '')) return null;
  const own = measures.get(link)?.text ?? 0;
  if (own === 0 || own > MAX_PHONE_CTA) return null;
  const linkText = textOf(link).trim();
  if (!PHONE_TEXT.test(linkText)) return null;
  let holder = link;
  while (isTag(holder.parent!) && holder.parent !== container && measures.get(holder.parent)?.text === own) {
    holder = holder.parent;
  }
  const parent = holder.parent;
  if (!PHRASING.has(holder.name) || !parent || parent === container || !isTag(parent)) return holder;
  if (PHRASING.has(parent.name) || (measures.get(parent)?.text ?? Infinity) > MAX_PHONE_CTA) return null;
  const rest = textOf(parent).replace(linkText, '').trim();
  return LEAD_IN.test(rest) ? parent : null;
}
