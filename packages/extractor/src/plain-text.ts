import type { TokenizerCallbacks } from 'htmlparser2';

import { FastTokenizer } from './dom/tokenizer.js';

export interface PlainTextOptions {
  /**
   * Characters of text kept; the rest is cut (and `truncated` set).
   * @default 2000000
   */
  maxChars?: number;
}

export interface PlainText {
  /** The page's visible text: one line per block, blank lines between paragraphs, whitespace collapsed. */
  text: string;
  /** The first `<title>`, when the page has one. */
  title?: string;
  /** `true` when `maxChars` cut the text. */
  truncated: boolean;
}

/** Elements whose content is not text a reader sees (`head` also ends at `<body>`, as it is often left open). */
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'head']);
/** Elements that start a new line. */
// prettier-ignore
const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'br', 'caption', 'dd', 'details', 'dialog', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'html',
  'legend', 'li', 'main', 'nav', 'ol', 'option', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot',
  'th', 'thead', 'tr', 'ul',
]);
/** Elements that end a paragraph (a blank line after them). */
const PARAGRAPH = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'table', 'ul', 'ol', 'dl']);

const DEFAULT_MAX_CHARS = 2_000_000;

/**
 * The visible text of an HTML page from htmlparser2's tokenizer alone: no DOM and no stack of open elements, so time
 * is linear in the input whatever its nesting (a million unclosed `<div>`s included), and memory is the output,
 * capped at `maxChars`. It is the fallback rendering of a page whose full extraction was cut by its time budget.
 */
export function htmlToPlainText(html: string, options: PlainTextOptions = {}): PlainText {
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  const parts: string[] = [];
  let length = 0;
  let truncated = false;
  const hidden = new Map<string, number>();
  let hiddenOpen = 0;
  let tag = '';
  let closing = false;
  let inTitle = false;
  let title = '';
  let seenTitle = false;
  /** The break owed before the next text: 0 none, 1 a new line, 2 a blank line. */
  let owed = 0;
  let space = false;

  const setHidden = (name: string, delta: number) => {
    const open = hidden.get(name) ?? 0;
    const next = Math.max(0, open + delta);
    hidden.set(name, next);
    hiddenOpen += next - open;
  };
  const element = (name: string, end: boolean) => {
    if (name === 'title') {
      inTitle = !end && !seenTitle;
      if (end && title) seenTitle = true;
      return;
    }
    if (name === 'body' && !end) setHidden('head', -Infinity);
    if (HIDDEN.has(name)) setHidden(name, end ? -1 : 1);
    else if (end && PARAGRAPH.has(name)) owed = 2;
    else if (BLOCK.has(name) && owed < 1) owed = 1;
  };
  const text = (data: string) => {
    if (inTitle) {
      if (title.length < 1_000) title += data;
      return;
    }
    if (hiddenOpen > 0 || truncated) return;
    let piece = data.replace(/\s+/g, ' ');
    if (piece.startsWith(' ')) {
      space = true;
      piece = piece.slice(1);
    }
    if (piece === '') return;
    if (length > 0) piece = (owed === 2 ? '\n\n' : owed === 1 ? '\n' : space ? ' ' : '') + piece;
    owed = 0;
    space = piece.endsWith(' ');
    if (space) piece = piece.slice(0, -1);
    if (length + piece.length > maxChars) {
      piece = piece.slice(0, Math.max(0, maxChars - length));
      truncated = true;
    }
    parts.push(piece);
    length += piece.length;
  };

  const callbacks: TokenizerCallbacks = {
    onopentagname(start, end) {
      tag = html.slice(start, end).toLowerCase();
      closing = false;
    },
    onopentagend() {
      if (!closing) element(tag, false);
    },
    onselfclosingtag() {
      if (!closing) element(tag, false);
    },
    onclosetag(start, end) {
      element(html.slice(start, end).toLowerCase(), true);
    },
    ontext(start, end) {
      text(html.slice(start, end));
    },
    ontextentity(codepoint) {
      text(String.fromCodePoint(codepoint));
    },
    onattribdata() {},
    onattribentity() {},
    onattribend() {},
    onattribname() {},
    oncdata() {},
    oncomment() {},
    ondeclaration() {},
    onend() {},
    onprocessinginstruction() {},
  };
  const tokenizer = new FastTokenizer({ decodeEntities: true }, callbacks);
  tokenizer.write(html);
  tokenizer.end();
  const result: PlainText = { text: parts.join(''), truncated };
  const cleanTitle = title.replace(/\s+/g, ' ').trim();
  if (cleanTitle) result.title = cleanTitle;
  return result;
}
