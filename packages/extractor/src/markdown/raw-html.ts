// Raw-HTML mode (`MarkdownOptions.rawHtml`): which elements are written as HTML, how their subtree is recorded, and
// how it is written back, sanitised the way the `html` format is (no scripts, styles or other non-content elements),
// and also without event handlers or `javascript:` URLs.
import type { Capture } from './capture.js';
import * as T from './tags.js';

/** One event of a recorded subtree: a start tag, an end tag, or text. */
export type RawEvent = { open: string; attribs: Record<string, string> } | { close: string } | string;

/**
 * Block elements with no markdown syntax that are kept as HTML (the others of `tags.ts`'s BLOCK, page structure
 * such as `section` or `main`, stay transparent).
 */
const HTML_BLOCKS = new Set(['div', 'details', 'summary', 'figure', 'figcaption', 'center']);

/** Inline elements that carry no meaning of their own: transparent in raw-HTML mode too. */
const TRANSPARENT = new Set(['span', 'font', 'label', 'nobr', 'wbr', 'picture', 'bdi', 'bdo', 'big', 'data', 'time']);

/** Skipped by default but kept as HTML in raw-HTML mode. */
const KEPT = new Set(['textarea', 'video', 'audio']);

/** Never written, whatever the mode: the `html` format's non-content elements, and what runs or embeds code. */
const DROPPED = new Set([
  ...['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'base', 'iframe', 'frame'],
  ...['frameset', 'object', 'embed', 'applet', 'svg', 'canvas', 'dialog', 'slot', 'param'],
]);

/** CommonMark's HTML block start condition 6: these names start a block whatever follows on the line. */
const BLOCK_START = new Set([
  ...['address', 'article', 'aside', 'base', 'basefont', 'blockquote', 'body', 'caption', 'center', 'col'],
  ...['colgroup', 'dd', 'details', 'dialog', 'dir', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure'],
  ...['footer', 'form', 'frame', 'frameset', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'header', 'hr', 'html'],
  ...['iframe', 'legend', 'li', 'link', 'main', 'menu', 'menuitem', 'nav', 'noframes', 'ol', 'optgroup', 'option'],
  ...['p', 'param', 'search', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'title', 'tr'],
  ...['track', 'ul'],
]);

/** Children that make an element's content blocks (markdown between its tags) rather than inline text. */
const BLOCK_CHILDREN = new Set([
  ...BLOCK_START,
  ...['pre', 'hgroup', 'math', 'table', 'section', 'article', 'main', 'nav', 'aside', 'header', 'footer'],
]);

const VOID = new Set(['area', 'br', 'col', 'embed', 'hr', 'img', 'input', 'source', 'track', 'wbr']);
const VALID_NAME = /^[a-z][a-z0-9-]*$/i;
const VALID_ATTRIBUTE = /^[a-z_:][-a-z0-9_:.]*$/i;
const UNSAFE_URL = /^(?:javascript|vbscript|data:text\/html)/i;
// eslint-disable-next-line no-control-regex
const IGNORED_IN_URL = /[\u0000-\u0020]/g;
const RAW_TEXT = new Set(['pre', 'textarea', 'listing']);

/** How raw-HTML mode writes an element: a block of HTML, HTML tags inline, a table decided at its end, or markdown. */
export type RawKind = 'block' | 'inline' | 'table' | undefined;

/** How raw-HTML mode writes `name` (its kind in `tags.ts` given): `undefined` when markdown expresses it. */
export function rawKind(name: string, kind: number, attribs: Record<string, string>): RawKind {
  if (!VALID_NAME.test(name)) return undefined;
  switch (kind) {
    case T.BLOCK:
    case T.DEFINITION_LIST:
      return HTML_BLOCKS.has(name) ? 'block' : undefined;
    case T.STRIKE:
    case T.RUBY:
      return 'inline';
    case T.LINK:
      return attribs.href === undefined ? 'inline' : undefined;
    case T.TABLE: {
      const role = attribs.role?.toLowerCase();
      return role === 'presentation' || role === 'none' ? undefined : 'table';
    }
    case T.SKIP:
      return KEPT.has(name) ? 'inline' : undefined;
    case T.INLINE:
      return T.TAGS.has(name) || TRANSPARENT.has(name) || DROPPED.has(name) ? undefined : 'inline';
    default:
      return undefined;
  }
}

/** Whether an element of this name must start an HTML block on a line of its own (CommonMark's condition 7). */
export function needsOwnLine(name: string): boolean {
  return !BLOCK_START.has(name) && !RAW_TEXT.has(name);
}

/** Records an element's subtree (sanitised: dropped elements never enter it) to be planned and replayed. */
export class RawCapture implements Capture {
  readonly events: RawEvent[];
  readonly #sanitise: boolean;
  #depth = 0;

  /**
   * @param sanitise drop what raw HTML must not hold; off to replay the subtree as it came (`tex-source.ts`).
   * @default true
   */
  constructor(name: string, attribs: Record<string, string>, sanitise = true) {
    this.events = [{ open: name, attribs }];
    this.#sanitise = sanitise;
  }

  open(name: string, attribs: Record<string, string>): boolean {
    if (this.#sanitise && (DROPPED.has(name) || !VALID_NAME.test(name))) return false;
    this.events.push({ open: name, attribs });
    this.#depth++;
    return true;
  }

  text(data: string): void {
    this.events.push(data);
  }

  close(name: string): boolean {
    this.events.push({ close: name });
    if (this.#depth === 0) return true;
    this.#depth--;
    return false;
  }
}

/**
 * A recorded subtree, indexed for one replay: where each element ends, and whether its own content is blocks only
 * (and at least one): then markdown can go between its tags; otherwise it is written whole as HTML.
 */
export interface RawPlan {
  readonly events: readonly RawEvent[];
  /** For a start tag's index, its end tag's index. */
  readonly end: Int32Array;
  readonly holdsBlocks: Uint8Array;
}

const EMPTY = 0;
const BLOCKS = 1;
const INLINE = 2;

/** Indexes a recorded subtree in one pass. */
export function planRaw(events: readonly RawEvent[]): RawPlan {
  const n = events.length;
  const end = new Int32Array(n).fill(n - 1);
  const holdsBlocks = new Uint8Array(n);
  const open: number[] = [];
  const content: number[] = [];
  for (let i = 0; i < n; i++) {
    const event = events[i]!;
    const top = content.length - 1;
    if (typeof event === 'string') {
      if (top >= 0 && event.trim() !== '') content[top] = INLINE;
    } else if ('open' in event) {
      if (top >= 0 && content[top] !== INLINE) content[top] = BLOCK_CHILDREN.has(event.open) ? BLOCKS : INLINE;
      open.push(i);
      content.push(EMPTY);
    } else if (open.length > 0) {
      const start = open.pop()!;
      end[start] = i;
      holdsBlocks[start] = content.pop() === BLOCKS ? 1 : 0;
    }
  }
  return { events, end, holdsBlocks };
}

/** Whether a recorded table is a GFM table exactly: a header row of `<th>` first, no spans, one line per cell. */
export function isGfmTable(events: readonly RawEvent[], from: number, to: number): boolean {
  let rows = 0;
  let firstRowCells = 0;
  let firstRowHeaders = 0;
  let inCell = 0;
  for (let i = from + 1; i < to; i++) {
    const event = events[i]!;
    if (typeof event === 'string' || !('open' in event)) {
      if (typeof event !== 'string' && (event.close === 'td' || event.close === 'th')) inCell--;
      continue;
    }
    const name = event.open;
    if (name === 'caption' || name === 'table' || name === 'colgroup') return false;
    if (name === 'tr') rows++;
    else if (name === 'td' || name === 'th') {
      if (event.attribs.colspan !== undefined || event.attribs.rowspan !== undefined) return false;
      if (rows === 1) {
        firstRowCells++;
        if (name === 'th') firstRowHeaders++;
      }
      inCell++;
    } else if (inCell > 0 && BLOCK_CHILDREN.has(name)) return false;
  }
  return rows > 0 && firstRowCells > 0 && firstRowCells === firstRowHeaders;
}

/** Rewrites or drops an attribute's value: `undefined` drops it. */
export type AttributeFilter = (element: string, name: string, value: string) => string | undefined;

function escapeAttribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\n/g, '&#10;');
}

/** A start tag, sanitised: no event handlers, no `srcdoc`, no `javascript:` or `vbscript:` URLs. */
export function startTag(name: string, attribs: Record<string, string>, filter?: AttributeFilter): string {
  let out = `<${name}`;
  for (const [key, given] of Object.entries(attribs)) {
    if (!VALID_ATTRIBUTE.test(key)) continue;
    const lower = key.toLowerCase();
    if (lower.startsWith('on') || lower === 'srcdoc' || lower === 'formaction') continue;
    if (UNSAFE_URL.test(given.replace(IGNORED_IN_URL, ''))) continue;
    const value = filter ? filter(name, lower, given) : given;
    if (value === undefined) continue;
    out += value === '' ? ` ${key}=""` : ` ${key}="${escapeAttribute(value)}"`;
  }
  return out + '>';
}

/** Whether an element has no end tag. */
export function isVoid(name: string): boolean {
  return VOID.has(name);
}

/**
 * The recorded subtree as HTML that CommonMark keeps as one HTML block: no blank line inside (whitespace runs
 * outside `<pre>` keep one newline; a blank line inside a nested `<pre>` is written `&#10;`), and a newline after
 * the first tag where the block's start condition needs it. The leading newline of a `<pre>` is written as parsed.
 */
export function serializeRaw(events: readonly RawEvent[], from: number, to: number, filter?: AttributeFilter): string {
  let out = '';
  let raw = 0;
  // CommonMark's condition 1: a block that starts with `<pre` or `<textarea` ends at its end tag, blank lines or not
  const first = events[from];
  const ownEnd = typeof first === 'object' && 'open' in first && (first.open === 'pre' || first.open === 'textarea');
  let text = '';
  const flushText = (): void => {
    if (text === '') return;
    let t = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    if (raw > 0) {
      if (!ownEnd) t = t.replace(/\n([ \t]*)\n/g, '\n$1&#10;');
    } else {
      t = t.replace(/[ \t]*\n\s*/g, '\n');
    }
    out += t;
    text = '';
  };
  for (let i = from; i < to; i++) {
    const event = events[i]!;
    if (typeof event === 'string') {
      text += event;
      continue;
    }
    flushText();
    if ('open' in event) {
      out += startTag(event.open, event.attribs, filter);
      if (RAW_TEXT.has(event.open)) raw++;
      if (i === from && needsOwnLine(event.open)) {
        const next = events[from + 1];
        if (typeof next === 'string') text = next.startsWith('\n') ? '' : '\n';
        else out += '\n';
      }
    } else {
      if (RAW_TEXT.has(event.close)) raw--;
      if (!VOID.has(event.close)) out += `</${event.close}>`;
    }
  }
  flushText();
  return out;
}
