/**
 * The render judge's lexical pass, step by step: the next tag of a page, and the end tag that closes a raw-text
 * element. Both jump from `<` to `<` (or `</` to `</`) with `String#indexOf` and read the few characters that
 * decide, where regular expressions tried every character of the page as a possible start, scripts included.
 */

/** A tag found by {@link nextTag}. */
export interface ScannedTag {
  /** Index of its `<`. */
  start: number;
  /** Index just past it (past its `>`, or past `<!--` for a comment's start). */
  end: number;
  /** `<!--`: a comment starts (its end is the caller's to find). */
  comment: boolean;
  /** The tag name as written (`undefined` for a comment, doctype or processing instruction). */
  name?: string;
  /** `</name>`. */
  closing: boolean;
  /** What follows the name up to `>`: the attributes. */
  raw: string;
}

/** Where a tag name ends: `[^\s/>]*` stops at the first of these. */
const NAME_END = /[\s/>]/g;

/**
 * The first tag at or after `from`, or `undefined`: the next match of
 * `/<(?:(\/?)([a-zA-Z][^\s/>]*)([^>]*)>|!--|[!?][^>]*>)/g` (tested against it).
 */
export function nextTag(html: string, from: number): ScannedTag | undefined {
  for (let at = html.indexOf('<', from); at >= 0; at = html.indexOf('<', at + 1)) {
    const c = html.charCodeAt(at + 1);
    const closing = c === 47; /* / */
    const i = closing ? at + 2 : at + 1;
    const letter = html.charCodeAt(i) | 0x20;
    if (letter >= 97 && letter <= 122) {
      NAME_END.lastIndex = i + 1;
      const j = NAME_END.exec(html)?.index ?? html.length;
      const gt = html.indexOf('>', j);
      // without a `>` ahead no tag can match here (nor a declaration: this `<` is followed by a letter or `/`)
      if (gt >= 0) {
        return { start: at, end: gt + 1, comment: false, name: html.slice(i, j), closing, raw: html.slice(j, gt) };
      }
      continue;
    }
    if (c === 33 /* ! */ && html.startsWith('--', at + 2)) {
      return { start: at, end: at + 4, comment: true, closing: false, raw: '' };
    }
    if (c === 33 || c === 63 /* ? */) {
      const gt = html.indexOf('>', at + 2);
      if (gt >= 0) return { start: at, end: gt + 1, comment: false, closing: false, raw: '' };
    }
  }
  return undefined;
}

const CLOSING = new Map<string, RegExp>();

/**
 * The first `</tag>` (any case, spaces before `>`) at or after `from`, as index and length, or `undefined`: the
 * next match of `new RegExp(`</${tag}\\s*>`, 'gi')`.
 */
export function closingTag(html: string, tag: string, from: number): { index: number; length: number } | undefined {
  let pattern = CLOSING.get(tag);
  if (!pattern) CLOSING.set(tag, (pattern = new RegExp(`</${tag}\\s*>`, 'iy')));
  for (let at = html.indexOf('</', from); at >= 0; at = html.indexOf('</', at + 2)) {
    pattern.lastIndex = at;
    const m = pattern.exec(html);
    if (m) return { index: at, length: m[0].length };
  }
  return undefined;
}
