// Markdown escaping of text content: a character gets a backslash only where, left alone, it could change how the
// line renders (emphasis, code, links, HTML, entities, block markers at the start of a line).

const SPECIAL = /[\\`*_[\]<&~!]/;
const SPECIAL_ALL = /[\\`*_[\]<&~!]/g;
const WORD = /[\p{L}\p{N}]/u;
const SPACE = /\s/;
const ENTITY = /(?:#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});/y;
const ASCII_PUNCT = /[!-/:-@[-`{-~]/;
const HTML_START = /[A-Za-z/!?]/;
const LINE_START = /^(?:#{1,6}(?=[ \t]|$)|[-+*](?=[ \t]|$)|>|\d{1,9}[.)](?=[ \t]|$)|[-=_](?=[-=_ \t]*$))/;

/** Characters that, at the end of a text run, can only be escaped once the next character is known. */
export const HELD = new Set(['!', ']', '\\', '<', '*', '_', '~']);

const isSpace = (c: string | undefined): boolean => c === '' || (c !== undefined && SPACE.test(c));
const isWord = (c: string | undefined): boolean => c !== undefined && c !== '' && WORD.test(c);

/**
 * Escapes one run of collapsed text (no leading or trailing space). `prev` is the character written just before
 * it (`''` at the start of a line), `next` the one just after it when known (a {@link HELD} character the caller
 * keeps back and resolves with {@link resolveHeld} once it knows what follows).
 */
export function escapeText(s: string, prev: string, inLinkText: boolean, next?: string): string {
  if (!SPECIAL.test(s)) return s;
  const last = s.length - 1;
  return s.replace(SPECIAL_ALL, (ch: string, i: number) => {
    const before = i > 0 ? s[i - 1] : prev;
    const after = i < last ? s[i + 1] : next;
    switch (ch) {
      case '`':
        return '\\`';
      case '*':
      case '~':
        return isSpace(before) && after !== undefined && isSpace(after) ? ch : '\\' + ch;
      case '_':
        if (isWord(before) && isWord(after)) return ch;
        return isSpace(before) && after !== undefined && isSpace(after) ? ch : '\\_';
      case '[':
        return inLinkText ? '\\[' : ch;
      case ']':
        if (inLinkText) return '\\]';
        if (after === undefined) return ch;
        return after === '(' || after === '[' || after === ':' ? '\\]' : ch;
      case '!':
        return after === '[' ? '\\!' : ch;
      case '\\':
        if (after === undefined) return ch;
        return ASCII_PUNCT.test(after) ? '\\\\' : ch;
      case '<':
        if (after === undefined) return ch;
        return HTML_START.test(after) ? '\\<' : ch;
      case '&':
        ENTITY.lastIndex = i + 1;
        return ENTITY.test(s) ? '\\&' : ch;
      default:
        return ch;
    }
  });
}

/**
 * The text for a {@link HELD} character now that the next character is known (`''`: end of the line). `prev` is
 * the character before it (`''` at the start of a line).
 */
export function resolveHeld(held: string, next: string, prev: string): string {
  switch (held) {
    case '*':
    case '~':
      // Between whitespace (the end of a line counts), it can neither open nor close emphasis.
      return isSpace(prev) && (next === '' || isSpace(next)) ? held : '\\' + held;
    case '_':
      if (isWord(prev) && isWord(next)) return held;
      return isSpace(prev) && (next === '' || isSpace(next)) ? held : '\\_';
    case '!':
      return next === '[' ? '\\!' : '!';
    case ']':
      return next === '(' || next === '[' || next === ':' ? '\\]' : ']';
    case '\\':
      return next !== '' && ASCII_PUNCT.test(next) ? '\\\\' : '\\';
    case '<':
      return next !== '' && HTML_START.test(next) ? '\\<' : '<';
    default:
      return held;
  }
}

/** Escapes a block marker (`#`, `-`, `+`, `*`, `>`, `1.`, a setext or thematic-break line) at the start of a line. */
export function escapeLineStart(s: string): string {
  const m = LINE_START.exec(s);
  if (!m) return s;
  const token = m[0];
  const c = token[token.length - 1]!;
  if (c === '.' || c === ')') return token.slice(0, -1) + '\\' + c + s.slice(token.length);
  return '\\' + s;
}

/**
 * Collapses whitespace runs (HTML's space, tab, CR, LF, FF, and also no-break spaces) to one space. A no-break
 * space kept as is would sit inside emphasis markers (`**bold&nbsp;**`) where CommonMark no longer sees them.
 */
export function collapseWhitespace(s: string): string {
  return /[\t\n\r\f\u00a0]| {2}/.test(s) ? s.replace(/[ \t\n\r\f\u00a0]+/g, ' ') : s;
}
