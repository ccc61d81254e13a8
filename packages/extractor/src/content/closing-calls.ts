// A closing call at the end of a landing page: "Ready to get pests out of your home?" and a "Get started" button, the
// last section of the chosen block. Read from structure: the container's last heading asks a question, what follows
// it is short and holds a call (a link styled as a button), and the page's text came before it. A FAQ's
// last question is one of several question headings of its rank, and stays.
import { isTag, type Element, type ParentNode } from 'domhandler';

import { elements, textOf } from '../dom/walk.js';
import { walkInOrder, type Measures } from './measure.js';
import { HEADING_TAGS } from './tags.js';
import type { Doomed } from './trace.js';

/** A closing call's heading holds at most this many characters: a line, not a paragraph set as a heading. */
const MAX_HEADING = 100;
/** What follows the heading (its pitch line) holds at most this many characters, calls excluded. */
const MAX_TAIL = 200;
/** The container holds at least this much text before the heading: the call closes a page, it is not the page. */
const MIN_BEFORE = 500;

/** Links styled as buttons (the class words of `furniture.ts`'s `link-button`). */
const BUTTON_CLASS = /(?:^|[\s_-])(?:btn|button|cta)(?:$|[\s_-])/i;

/**
 * Whether `el` is a closing call: a link styled as a button, which leads to another page (the contact or sign-up
 * page). A `<button>` or a form after a closing question acts in place: a newsletter box, a demo's dialog.
 */
function isCall(el: Element): boolean {
  return el.name === 'a' && BUTTON_CLASS.test(el.attribs['class'] ?? '');
}

/** The characters of `el` that no other rule has dropped. */
function liveText(el: Element, measures: Measures, doomed: Doomed): number {
  if (doomed.has(el)) return 0;
  let text = measures.get(el)?.text ?? 0;
  walkInOrder(el, measures, (e, m) => {
    if (e !== el && doomed.has(e)) {
      text -= m.text;
      return true;
    }
    return false;
  });
  return text;
}

/** The nodes after `heading` up to the end of `container`, outermost first. */
function tailOf(heading: Element, container: Element): Element[] {
  const tail: Element[] = [];
  for (let el: ParentNode = heading; el !== container && isTag(el); el = el.parent!) {
    for (let n = el.next; n; n = n.next) if (isTag(n)) tail.push(n);
  }
  return tail;
}

/**
 * Drops the container's last heading (h2–h6) and what follows it when the heading asks a question and no other
 * heading of its rank does, what follows holds at most 200 characters besides a call (a link styled as a button)
 * that it must hold, and at least 500 characters of the container's text come before it.
 */
export function dropClosingCalls(container: Element, measures: Measures, doomed: Doomed): void {
  let last: Element | undefined;
  const asking = new Map<string, number>();
  walkInOrder(container, measures, (el, m) => {
    if (doomed.has(el) || m.text === 0) return true;
    if (el !== container && HEADING_TAGS.has(el.name)) {
      last = el.name === 'h1' ? undefined : el;
      if (textOf(el).includes('?')) asking.set(el.name, (asking.get(el.name) ?? 0) + 1);
      return true;
    }
    return false;
  });
  if (!last || (asking.get(last.name) ?? 0) !== 1) return;
  const heading = textOf(last).trim();
  const hm = measures.get(last)!;
  if (!heading.includes('?') || hm.text > MAX_HEADING || hm.link > 0) return;
  const tail = tailOf(last, container);
  let tailText = 0;
  let calls = 0;
  for (const el of tail) {
    for (const e of [el, ...elements(el)]) {
      if (!isCall(e)) continue;
      calls++;
      tailText -= liveText(e, measures, doomed);
    }
    tailText += liveText(el, measures, doomed);
  }
  if (calls === 0 || tailText > MAX_TAIL) return;
  const before = liveText(container, measures, doomed) - liveText(last, measures, doomed) - tailText;
  if (before < MIN_BEFORE) return;
  doomed.drop(last, 'closing-call');
  for (const el of tail) if (!doomed.has(el)) doomed.drop(el, 'closing-call');
}
