// FAQ accordions put each question in the button that opens its answer: that button is the question, not a control.
import type { Element } from 'domhandler';

import { textOf } from '../dom/walk.js';

/** A question: its last sentence mark is a question mark (closing quotes and brackets aside). */
const QUESTION = /\?["'”’)\]]*$/;

/**
 * Whether a `<button>` is the question of a FAQ entry: a disclosure toggle (`aria-expanded` or `aria-controls`, the
 * ARIA accordion pattern) whose text is a question. Other buttons (Add to cart, Show more, Menu) are calls to action.
 */
export function isQuestionToggle(button: Element): boolean {
  const a = button.attribs;
  if (a['aria-expanded'] === undefined && a['aria-controls'] === undefined) return false;
  return QUESTION.test(textOf(button));
}
