// An info icon inside the text: a "?" or "ⓘ" that shows a tooltip when hovered ("The annual fee is $95 (?)."). Its
// explanation lives in an attribute or a script, so all the reader of the markdown would get is a stray "?".
import type { Element } from 'domhandler';

import { textOf } from '../dom/walk.js';
import type { Measure } from './measure.js';

/** The whole text of an info icon: a question mark or the information sign, bare or in brackets. */
const ICON_TEXT = /^[([]?(?:\?|\u24d8|\u2139\ufe0f?)[)\]]?$/;

/** Class words of a tooltip's trigger, also inside a CSS module's name (`styles_tooltip__Oq0JW`). */
const TOOLTIP_CLASS = /(?:^|[\s_-])(?:tool-?tips?|popovers?|info-?icon|help-?icon|hint)(?:$|[\s_-])/i;

/** Attributes that give an element a tooltip or popover: Bootstrap's, Tippy's, plain `data-tooltip`. */
function hasTooltip(el: Element): boolean {
  const { attribs } = el;
  const toggle = attribs['data-toggle'] ?? attribs['data-bs-toggle'];
  return (
    (toggle !== undefined && /^(?:tooltip|popover)$/i.test(toggle)) ||
    attribs['data-tooltip'] !== undefined ||
    attribs['data-tippy-content'] !== undefined ||
    attribs['aria-describedby'] !== undefined ||
    attribs.role === 'tooltip' ||
    TOOLTIP_CLASS.test(attribs.class ?? '')
  );
}

/** Whether `el` is an info icon: its whole text a "?" or "ⓘ", marked as a tooltip's trigger. A bare "?" stays. */
export function isInfoIcon(el: Element, m: Measure): boolean {
  return m.text <= 3 && hasTooltip(el) && ICON_TEXT.test(textOf(el));
}
