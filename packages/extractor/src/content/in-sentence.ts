// A call to action or a label written inside a sentence ("please see our <a>Privacy Policy</a> for details",
// "according to <button>Mikey Shulman</button>, a lecturer") is a word of that sentence: dropping it leaves a
// broken one. Standing alone, or after a finished sentence ("… today. <a>Learn more</a>"), it is furniture still.
import { isTag, isText, type AnyNode, type Element } from 'domhandler';

import { textOf } from '../dom/walk.js';
import { INLINE_TAGS } from './tags.js';

/** Inline elements that are not words of a sentence around them: a row of links or buttons is not a sentence. */
const NOT_WORDS: ReadonlySet<string> = new Set(['a', 'button', 'img', 'input', 'select', 'textarea', 'br', 'label']);

/**
 * The text beside `el`: of the text nodes right next to it, else of the inline element next to it (a `<span>` holding
 * the sentence's next words; not a link or a button), told apart because an element's text is weaker evidence.
 */
function besideText(el: Element, side: 'prev' | 'next'): { text: string; ofElement: boolean } {
  let text = '';
  let n: AnyNode | null = side === 'prev' ? el.prev : el.next;
  for (; n && isText(n); n = side === 'prev' ? n.prev : n.next) text = side === 'prev' ? n.data + text : text + n.data;
  if (text.trim() !== '' || !n || !isTag(n) || !INLINE_TAGS.has(n.name) || NOT_WORDS.has(n.name))
    return { text, ofElement: false };
  return { text: textOf(n), ofElement: true };
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
  const before = besideText(el, 'prev');
  const after = besideText(el, 'next');
  const open = OPEN_BEFORE.test(before.text);
  const goesOn = GOES_ON_AFTER.test(after.text);
  // text nodes tell on one side; the texts of elements beside it only on both ("Developers <a>report</a><span> that")
  return (open && !before.ofElement) || (goesOn && !after.ofElement) || (open && goesOn);
}
