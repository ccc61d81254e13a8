// A call to action or a label written inside a sentence ("please see our <a>Privacy Policy</a> for details",
// "according to <button>Mikey Shulman</button>, a lecturer") is a word of that sentence: dropping it leaves a
// broken one. Standing alone, or after a finished sentence ("… today. <a>Learn more</a>"), it is furniture still.
import { isText, type AnyNode, type Element } from 'domhandler';

import { textOf } from '../dom/walk.js';
import { INLINE_TAGS } from './tags.js';

/** The text of the text nodes right beside `el` (not of elements: a row of links is not a sentence). */
function besideText(el: Element, side: 'prev' | 'next'): string {
  let text = '';
  for (let n: AnyNode | null = side === 'prev' ? el.prev : el.next; n && isText(n);) {
    text = side === 'prev' ? n.data + text : text + n.data;
    n = side === 'prev' ? n.prev : n.next;
  }
  return text;
}

/** An inline element of more text than this is a passage of its own, not a few words of a sentence. */
export const MAX_SENTENCE_PART = 200;

/** A sentence goes on before it: its last word is lower case, or a comma ends it. */
const OPEN_BEFORE = /[\p{Ll},]\s*$/u;
/** The sentence goes on after it: a lower-case word, or a comma or semicolon (an item of a list in the sentence). */
const GOES_ON_AFTER = /^\s*(?:[,;]|\p{Ll})/u;

/**
 * Whether the inline element `el` is a word of a sentence of the text around it. A label (`Price:`) and a mark
 * without a word (a heading's `#` or 🔗 anchor) are not. `text` is its text, when the caller has read it.
 */
export function inSentence(el: Element, text?: string): boolean {
  if (!INLINE_TAGS.has(el.name)) return false;
  const own = text ?? textOf(el);
  if (!/\p{L}/u.test(own) || own.trimEnd().endsWith(':')) return false;
  return OPEN_BEFORE.test(besideText(el, 'prev')) || GOES_ON_AFTER.test(besideText(el, 'next'));
}
