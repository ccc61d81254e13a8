// Punctuation that a dropped element leaves behind: "Ready to get started? <a>Contact us</a>." loses its call to
// action and would read "Ready to get started?." The parser merges neighbouring text, so two text nodes side by side
// mean something between them was removed (a button, a call to action, an excluded tag, a comment): the seam. When
// the text after a seam opens with punctuation and the text before it already closed its clause (or is nothing), the
// punctuation closed what went, and goes too; when the text before goes on, the space left before a period or comma
// goes ("charged daily <a>?</a>." is "charged daily."). A `<sup>` or `<sub>` left holding only the separators of
// the references it held (Samsung's `<sup><a aria-hidden>6</a>,<a aria-hidden>22</a></sup>`: the hidden links go, the
// comma stays, with no seam before it) goes whole. One pass after every removal, for every format that reads the
// tree.
import { isTag, isText, type AnyNode, type Element, type ParentNode, type Text } from 'domhandler';

import { detach, textOf } from '../dom/walk.js';

/** Punctuation opening the text after a seam (the whitespace before it stays). */
const LEADING = /^(\s*)[.,;:!?]+/;

/** A period or comma right at the start (no space before it: French sets one before `;:!?`, never before these). */
const TIGHT = /^[.,]/;

/** Text that already closed its clause. */
const CLOSED = /[.,;:!?]$/;

/**
 * The text of a raised or lowered list of references once every reference went: the separators alone, a comma or a
 * semicolon among them. None of the 1,497 WCXB dev pages writes such a `<sup>` or `<sub>` of its own. A period may
 * close the sentence, and a lone dash is an ion's charge (`OH<sup>-</sup>`): neither is one.
 */
const SEPARATORS_ONLY = /^[\s\u2013-]*[,;][\s,;\u2013-]*$/;

/** A `<sup>` or `<sub>` holding nothing but text, and that text separators only. */
function bareReferences(el: Element): boolean {
  return (el.name === 'sup' || el.name === 'sub') && el.children.every(isText) && SEPARATORS_ONLY.test(textOf(el));
}

/** Where text is the page's own characters, never tidied: code, and the raw text of a form field. */
const VERBATIM: ReadonlySet<string> = new Set(['pre', 'code', 'textarea']);

/** The nearest text before `node` among its siblings, trimmed (`''` when there is none). */
function textBefore(node: AnyNode): string {
  for (let p = node.prev; p; p = p.prev) {
    const text = isText(p) ? p.data.trim() : isTag(p) ? textOf(p) : '';
    if (text !== '') return text;
  }
  return '';
}

function verbatim(node: AnyNode): boolean {
  for (let p = node.parent; p; p = p.parent) if (isTag(p) && VERBATIM.has(p.name)) return true;
  return false;
}

/**
 * Removes the punctuation that opens a text right after a seam when the text before it needs none, or the space left
 * before a period or comma when it goes on, and the `<sup>`s and `<sub>`s left holding separators only; how many
 * seams and such marks it tidied.
 */
export function dropOrphanPunctuation(root: ParentNode): number {
  const seams: Text[] = [];
  const bare: Element[] = [];
  const stack: AnyNode[] = [...root.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (isText(node)) {
      if (node.prev && isText(node.prev) && LEADING.test(node.data)) seams.push(node);
    } else if (isTag(node)) {
      if (bareReferences(node)) bare.push(node);
      else for (const child of node.children) stack.push(child);
    }
  }
  let count = 0;
  for (const el of bare) {
    if (verbatim(el)) continue;
    detach(el);
    count++;
  }
  for (const text of seams) {
    if (verbatim(text)) continue;
    const before = textBefore(text);
    if (before === '' || CLOSED.test(before)) text.data = text.data.replace(LEADING, '$1');
    else if (TIGHT.test(text.data) && /\s$/.test((text.prev as Text).data)) {
      const prev = text.prev as Text;
      prev.data = prev.data.trimEnd();
    } else continue;
    count++;
  }
  return count;
}
