// Bold paragraphs that title a section in place of a heading ("<p><strong>YOU MIGHT ALSO LIKE:</strong></p>").
import { isTag, isText, type Element } from 'domhandler';

import { textOf } from '../dom/walk.js';
import type { Measure } from './measure.js';

/** A bold label holds at most this many characters: a title, not a bold sentence. */
const MAX_BOLD_LABEL = 60;

/** The rank a bold label takes: the lowest, so that any heading ends its section. */
export const BOLD_LABEL_LEVEL = 6;

/** A lead-in to a list that belongs to the text ("Popular languages include:", "The main options are:"). */
const LEAD_IN = /\b(?:include|includes|including|are|is|such as)\s*:?\s*$/i;

/**
 * A table of contents titled in bold stays: a manual's chapter list under a bold "Table of Contents" is part of the
 * page its reference keeps (tables of contents under heading tags are left to the heading rule).
 */
const CONTENTS = /^(?:table of contents|contents|in this (?:article|post|guide|page)|on this page)\b/i;

const BOLD: ReadonlySet<string> = new Set(['strong', 'b']);

/**
 * Whether `el` is a paragraph (or a div) holding nothing but one bold run without links: a section title written in
 * bold. The text is returned for the heading test, or null.
 */
export function boldLabelText(el: Element, m: Measure): string | null {
  if ((el.name !== 'p' && el.name !== 'div') || m.text === 0 || m.text > MAX_BOLD_LABEL || m.link > 0) return null;
  let bold: Element | null = null;
  for (const c of el.children) {
    if (isText(c)) {
      if (c.data.trim() !== '') return null;
    } else if (isTag(c)) {
      if (bold || !BOLD.has(c.name)) return null;
      bold = c;
    }
  }
  if (!bold) return null;
  const text = textOf(bold);
  return LEAD_IN.test(text) || CONTENTS.test(text) ? null : text;
}
