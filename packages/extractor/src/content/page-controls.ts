// Controls of the page inside the text: a bare "Hide" / "Show" toggle and links that jump to a place on the same
// page ("Jump to details", "Skip to product list"). They move the reader around the page; they are not its text.
import { isTag, isText, type Element } from 'domhandler';

import type { Measure, Measures } from './measure.js';
import { CONTROL_TEXT } from './phrases/control-verbs.js';
import type { ShortTexts } from './short-texts.js';

/** A bare toggle's label ("Hide", "Show"): furniture as a link, a button or a block of its own, not in a sentence. */
const TOGGLE_TEXT = /^(?:hide|show):?$/i;

/** Whether `el` is a bare toggle: its text is "Hide" or "Show" and it is a link, a button or all of its parent. */
function isToggleLabel(el: Element, m: Measure, measures: Measures, texts: ShortTexts): boolean {
  if (m.text > 5 || !TOGGLE_TEXT.test(texts.get(el))) return false;
  const parent = el.parent;
  return el.name === 'a' || el.name === 'button' || (isTag(parent!) && measures.get(parent)?.text === m.text);
}

/**
 * A link into the page itself ("Jump to details", "Skip to product list", "» Skip to the extras", "< Back to top"): a
 * pointer, not text.
 */
const JUMP_TEXT =
  /^\W*(?:(?:jump|skip|go|scroll)(?: down| straight| right)? to\b|(?:back|return) to (?:the )?top\b|top of (?:the )?page\W*$)/i;

/** A jump link holds at most this many characters. */
const MAX_JUMP_LINK = 40;

/**
 * Whether `el` is a link to a place on the same page whose text says "jump to" or "skip to", first in its line: after
 * words of a sentence ("You can jump to the end of the list to ...") it is the text.
 */
function isJumpLink(el: Element, m: Measure, measures: Measures, texts: ShortTexts): boolean {
  if (el.name !== 'a' || m.text > MAX_JUMP_LINK || !(el.attribs['href'] ?? '').includes('#')) return false;
  return JUMP_TEXT.test(texts.get(el)) && !hasTextBefore(el, measures);
}

/**
 * A documentation page's link to its own source ("Edit this page", "Edit on GitHub", "Edit this page on GitHub ↗",
 * "Suggest an edit", "Improve this page"): how to change the page, not what it says. A long page's `<article>` leaves
 * it outside; a short one's container (`<main>`) holds it.
 */
const EDIT_TEXT =
  /^\W*(?:edit (?:this )?(?:page|doc(?:ument)?|article)(?: on [\w.]+)?|edit on [\w.]+|(?:suggest|propose) (?:an? )?(?:edits?|changes?)(?: to this page)?|improve this (?:page|doc(?:ument(?:ation)?)?))\W*$/i;

/** An edit link holds at most this many characters. */
const MAX_EDIT_LINK = 40;

/** Whether `el` has text before it in its parent: a link after words of a sentence is the text. */
function hasTextBefore(el: Element, measures: Measures): boolean {
  for (let prev = el.prev; prev; prev = prev.prev) {
    if (isTag(prev) ? (measures.get(prev)?.text ?? 0) > 0 : isText(prev) && /\S/.test(prev.data)) return true;
  }
  return false;
}

/**
 * Whether `el` is a link whose whole text asks to edit the page, first in its line: "To fix a typo, edit this page on
 * GitHub and ..." is the text.
 */
function isEditLink(el: Element, m: Measure, measures: Measures, texts: ShortTexts): boolean {
  if (el.name !== 'a' || m.text > MAX_EDIT_LINK || !EDIT_TEXT.test(texts.get(el))) return false;
  return !hasTextBefore(el, measures);
}

/** An `href` that goes nowhere: a script's control (`#`, `javascript:void(0)`), not a link. */
const DEAD_HREF = /^\s*(?:#|javascript:.*)?\s*$/i;

/** A dead link's control label holds at most this many characters. */
const MAX_CONTROL_LINK = 48;

/**
 * Whether `el` is a link that goes nowhere (`href="#"`, `javascript:`) whose text is a control's label, first in its
 * line: a wish list's, a compare list's, a viewer's button drawn as a link (Magento's "Add to Wish List").
 */
function isDeadControlLink(el: Element, m: Measure, measures: Measures, texts: ShortTexts): boolean {
  const href = el.attribs['href'];
  if (el.name !== 'a' || href === undefined || m.text > MAX_CONTROL_LINK || !DEAD_HREF.test(href)) return false;
  return CONTROL_TEXT.test(texts.get(el)) && !hasTextBefore(el, measures);
}

/**
 * Whether `el` is a control of the page rather than its text: a bare "Hide" / "Show" toggle (a link, a button or a
 * block of its own), a link that jumps to a place on the same page or asks to edit the page, first in its line, or a
 * link that goes nowhere labelled as a control.
 */
export function isPageControl(el: Element, m: Measure, measures: Measures, texts: ShortTexts): boolean {
  return (
    isToggleLabel(el, m, measures, texts) ||
    isJumpLink(el, m, measures, texts) ||
    isEditLink(el, m, measures, texts) ||
    isDeadControlLink(el, m, measures, texts)
  );
}
