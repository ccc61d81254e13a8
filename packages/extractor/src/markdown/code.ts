import type { Capture } from './capture.js';

const LANGUAGE = /(?:^|\s)(?:language|lang)-([^\s]+)/;
const HIGHLIGHT = /(?:^|\s)highlight-(?:source-|text-)?([A-Za-z0-9#+_.-]+)/;
const BRUSH = /brush:\s*([\w#+.-]+)/;
/** An info string CommonMark keeps whole: no whitespace, no backtick (the fence is of backticks). */
const VALID = /^[^\s`]{1,32}$/u;
const NO_LANGUAGE = new Set(['none', 'nohighlight', 'plain', 'plaintext', 'no-highlight']);
/** Line-number gutters and copy buttons that code highlighters put inside or beside the code. */
const GUTTER =
  /(?:^|\s)(?:gutter|gl|linenos?|lineno|lnt?|line-?numbers?(?:-rows)?|line-number|ln-num|hljs-ln-numbers|rouge-gutter|blob-num|CodeMirror-linenumber|react-syntax-highlighter-line-number|code-line-number|copy-?button|copy-code-button|clipboard)(?:\s|$)/i;
/** Elements that start a new line inside `<pre>` even without a newline character (one-div-per-line highlighters). */
const LINE_ELEMENTS = new Set(['div', 'p', 'li', 'tr', 'table', 'ul', 'ol']);
const SKIPPED = new Set(['script', 'style', 'button', 'template', 'noscript', 'svg']);

/** The code language named by `class` (`language-*`, `lang-*`, `highlight-*`, `brush:`) or `data-lang`. */
export function languageOf(attribs: Record<string, string>): string {
  const data = attribs['data-lang'] ?? attribs['data-language'];
  let lang = data?.trim();
  const cls = attribs.class;
  if (!lang && cls) lang = LANGUAGE.exec(cls)?.[1] ?? HIGHLIGHT.exec(cls)?.[1] ?? BRUSH.exec(cls)?.[1];
  if (!lang) return '';
  if (cls && !data && HIGHLIGHT.test(cls) && !LANGUAGE.test(cls)) lang = lang.split('-')[0]!;
  lang = lang.toLowerCase();
  return VALID.test(lang) && !NO_LANGUAGE.has(lang) ? lang : '';
}

/** True for elements that are line-number gutters or copy buttons. */
export function isGutter(attribs: Record<string, string>): boolean {
  const cls = attribs.class;
  return cls !== undefined && GUTTER.test(cls);
}

/** A fence longer than any run of backticks in the code. */
function fenceFor(code: string): string {
  let longest = 0;
  if (code.includes('```')) for (const m of code.matchAll(/`{3,}/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** `<pre>`: its text kept exactly, gutters dropped, as a fenced block with the language of its classes. */
export class PreCapture implements Capture {
  #depth = 0;
  #code = '';
  #last = '';
  #language: string;
  /** The newline right after `<pre>` is not content (HTML parsing rule); one after `<pre><code>` is. */
  #leadingNewline: boolean | undefined;
  /** Whether each open element is a line element (`LINE_ELEMENTS`), innermost last. */
  readonly #lines: boolean[] = [];
  /** A line element just ended: text after it starts a new line, as the browser lays it out. */
  #lineEnded = false;
  /** A gutter was skipped: a `<pre>` that held nothing else (a gutter column of its own) is no code. */
  #sawGutter = false;

  constructor(language: string) {
    this.#language = language;
  }

  open(name: string, attribs: Record<string, string>): boolean {
    if (SKIPPED.has(name)) return false;
    if (isGutter(attribs)) {
      this.#sawGutter = true;
      return false;
    }
    this.#leadingNewline ??= false;
    const line = LINE_ELEMENTS.has(name);
    if (name === 'br') this.text('\n');
    else if (line) {
      this.#lineEnded = false;
      if (this.#code !== '' && this.#last !== '\n') this.#append('\n');
    }
    if (name === 'code' && !this.#language) this.#language = languageOf(attribs);
    this.#lines.push(line);
    this.#depth++;
    return true;
  }

  text(data: string): void {
    if (data === '') return;
    this.#leadingNewline ??= data.startsWith('\n') || data.startsWith('\r\n');
    if (this.#lineEnded) {
      this.#lineEnded = false;
      if (this.#last !== '\n' && data[0] !== '\n' && data[0] !== '\r') this.#append('\n');
    }
    this.#append(data);
  }

  #append(data: string): void {
    this.#code += data;
    this.#last = data[data.length - 1]!;
  }

  close(): boolean {
    if (this.#depth === 0) return true;
    this.#depth--;
    if (this.#lines.pop() && this.#code !== '') this.#lineEnded = true;
    return false;
  }

  /** The fenced block (an empty `<pre>` is an empty block: its whitespace is content; a gutter alone is nothing). */
  finish(): string {
    let code = this.#code;
    if (this.#sawGutter && code.trim() === '') return '';
    if (code.includes('\r')) code = code.replace(/\r\n?/g, '\n');
    if (this.#leadingNewline && code.startsWith('\n')) code = code.slice(1);
    if (code.endsWith('\n')) code = code.slice(0, -1);
    const fence = fenceFor(code);
    return code === '' ? `${fence}${this.#language}\n${fence}` : `${fence}${this.#language}\n${code}\n${fence}`;
  }
}

/** Inline `<code>`, `<kbd>`, `<samp>`, `<tt>` (and `<pre>` where only inline content fits): a code span. */
export class CodeCapture implements Capture {
  #depth = 0;
  #code = '';
  readonly #newline: string;

  constructor(newline = ' ') {
    this.#newline = newline;
  }

  open(name: string, attribs: Record<string, string>): boolean {
    if (SKIPPED.has(name) || isGutter(attribs)) return false;
    if (name === 'br') this.#code += this.#newline;
    this.#depth++;
    return true;
  }

  text(data: string): void {
    this.#code += data;
  }

  close(): boolean {
    if (this.#depth === 0) return true;
    this.#depth--;
    return false;
  }

  /** The raw text of the element. */
  get code(): string {
    return this.#code;
  }

  /** The code span ('' for no code). */
  finish(): string {
    let code = this.#code;
    // A line break in inline code displays as a space; runs of plain spaces are kept (they are in the text).
    if (/[\r\n\t]/.test(code)) code = code.replace(/[ \t]*[\r\n][ \t\r\n]*/g, ' ').replace(/\t/g, ' ');
    if (code === '') return '';
    if (/^ +$/.test(code)) return `\`${code}\``;
    let longest = 0;
    if (code.includes('`')) for (const m of code.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
    const fence = '`'.repeat(longest + 1);
    const pad = code.startsWith('`') || code.endsWith('`') || (code.startsWith(' ') && code.endsWith(' ')) ? ' ' : '';
    return `${fence}${pad}${code}${pad}${fence}`;
  }
}
