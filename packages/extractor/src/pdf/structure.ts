/**
 * A PDF page's lines (`layout.ts`) as markdown: paragraphs, headings and lists. A PDF has none of these, only text
 * placed on pages; they are read from the type and the spacing against the document's body text:
 * - a heading is a short line set larger than the body (its level the rank of its size among the headings' sizes),
 *   or bold at the body's size (the lowest level), or a line that names an entry of the document's outline (its level
 *   the entry's depth, one below the document's title when it has one: `underTitle`);
 * - a paragraph ends at a wider gap than the body's line spacing, a change of type, an indented line, after a line
 *   that ends a sentence short of the column's right edge, at a clause number ("5.3 Title …") after a sentence, or
 *   where a column ends (unless mid-sentence);
 * - a list item is a line that opens with a bullet or a number ("1.", "2)"), its wrapped lines hanging past it.
 */
import type { Line } from './layout.js';

/** The body text of a document: what headings stand out from and paragraphs are spaced by. */
export interface BodyStyle {
  /** The font size most of the text is set in. */
  size: number;
  /** Most of the body text is bold: bold is no heading then. */
  bold: boolean;
  /** The usual distance between the baselines of two lines of a paragraph (0 when unknown). */
  leading: number;
  /** Heading sizes, largest first: a heading's level is its size's place here, plus one. */
  headingSizes: number[];
  /** The right edge of the widest line of body text outside columns: where a full line ends. */
  right: number;
}

/** The document's outline entries by their text (`outlineKey`), with the depth and the page each opens. */
export type OutlineIndex = Map<string, { depth: number; page?: number; used?: boolean }>;

/** Times the body size a line must be set in to be a heading by size. */
const HEADING_RATIO = 1.15;
/** Characters a heading may have (a longer line in large type is a lead paragraph). */
export const MAX_HEADING = 150;
/** Lines a heading may wrap to. */
const MAX_HEADING_LINES = 3;
/** Distinct heading sizes kept; smaller ones are body text. */
const MAX_LEVELS = 5;
/** A gap above this many times the body's leading ends a paragraph. */
const PARAGRAPH_GAP = 1.3;

const BULLET = /^([•●○◦▪▫■□‣⁃∙·*\uf0b7\uf0a7–-])\s+(?=\S)/u;
const NUMBERED = /^\(?(\d{1,3})[.)]\s+(?=\S)/;
const SENTENCE_END = /[.!?:;"'”’)\]]$/u;
/** Text a markdown reader takes for a heading, quote, table, code fence, rule or list, not a paragraph. */
const MARKDOWN_START = /^(?:#{1,6}(?:\s|$)|>|\||```|~~~|[-+*](?:\s|$)|\d+[.)](?:\s|$)|(?:[-_*=]\s*){3,}$)/;
/** A block that is not a paragraph: a heading, list, table, or a paragraph escaped as one (`literal`). */
const PARAGRAPH_NOT = /^(?:#|\||\\|[-+*] |\d+\. )/;
/** A line that opens with a capital or a digit, after any opening quote or bracket. */
const OPENS_SENTENCE = /^[\p{Pi}\p{Ps}"']*[\p{Lu}\p{N}]/u;
/**
 * A clause number of two or more levels ("5.2", "12.1.3.") opening a line before a capital: after a sentence it starts
 * a clause of its own, however long the line before it (a clause of one full line does not end short).
 */
const CLAUSE = /^\(?\d{1,3}(?:\.\d{1,3})+\.?\)?\s+[\p{Pi}\p{Ps}"']*\p{Lu}/u;
/** Leader dots and a page number ("Introduction . . . . 12", "Index.........iv") end an entry. */
const LEADER = /(?:\.\s*){4,}[\p{L}\p{N}]{1,6}$/u;

export const sizeKey = (size: number): number => Math.round(size * 2) / 2;

/** Outline text and a line's, compared: letters and digits only, lower case. */
export const outlineKey = (text: string): string =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

const wordy = (text: string): boolean => /\p{L}/u.test(text);

/** The body style of the document's pages: its commonest size by characters, the heading sizes above it. */
export function bodyStyle(pages: readonly Line[][]): BodyStyle {
  const chars = new Map<number, number>();
  let boldChars = 0;
  let total = 0;
  for (const line of pages.flat()) {
    const key = sizeKey(line.size);
    chars.set(key, (chars.get(key) ?? 0) + line.text.length);
    if (line.bold) boldChars += line.text.length;
    total += line.text.length;
  }
  let size = 0;
  for (const [key, count] of chars) if (count > (chars.get(size) ?? 0)) size = key;
  const gaps: number[] = [];
  let right = 0;
  for (const line of pages.flat()) {
    if (line.column === 0 && line.cells.length === 1 && sizeKey(line.size) === size)
      right = Math.max(right, line.right);
  }
  for (const lines of pages) {
    for (let i = 1; i < lines.length; i++) {
      const [prev, line] = [lines[i - 1]!, lines[i]!];
      if (sizeKey(prev.size) !== size || sizeKey(line.size) !== size || prev.column !== line.column) continue;
      const gap = prev.y - line.y;
      if (gap > 0 && gap < size * 3) gaps.push(gap);
    }
  }
  gaps.sort((p, q) => p - q);
  const headingSizes = new Set<number>();
  for (const line of pages.flat()) {
    const key = sizeKey(line.size);
    const heading = key >= size * HEADING_RATIO && line.text.length <= MAX_HEADING && wordy(line.text);
    if (heading && !line.scanned) headingSizes.add(key);
  }
  return {
    size,
    bold: boldChars > total / 2,
    leading: gaps[Math.floor(gaps.length / 2)] ?? 0,
    headingSizes: [...headingSizes].sort((p, q) => q - p).slice(0, MAX_LEVELS),
    right,
  };
}

type Block =
  | { kind: 'heading'; level: number; lines: Line[] }
  | { kind: 'paragraph'; lines: Line[]; /** The left edge of its lines after the first. */ left?: number }
  | { kind: 'item'; marker: string; lines: Line[] }
  | { kind: 'table'; lines: Line[] };

/** The heading level of a line, undefined for body text. */
function headingLevel(
  line: Line,
  body: BodyStyle,
  outline: OutlineIndex | undefined,
  page: number,
): number | undefined {
  if (!wordy(line.text) || line.text.length > MAX_HEADING || line.cells.length > 1) return undefined;
  const entry = outline?.size ? outline.get(outlineKey(line.text)) : undefined;
  if (entry && !entry.used && (entry.page === undefined || Math.abs(entry.page - page) <= 1)) {
    entry.used = true;
    return Math.min(entry.depth + 1, 6);
  }
  if (line.scanned) return undefined;
  const rank = body.headingSizes.indexOf(sizeKey(line.size));
  if (rank >= 0) return rank + 1;
  if (line.bold && !body.bold && line.size >= body.size - 0.5 && !/[.,;:]$/.test(line.text)) {
    return Math.min(body.headingSizes.length + 1, 6);
  }
  return undefined;
}

/**
 * `last` ends short of its column's right edge: the first word of `next` would have fit after it, so the line was
 * ended by the writer, not wrapped (its width estimated from `next`'s average character).
 */
function short(last: Line, next: Line, right: number): boolean {
  const room = right - last.right;
  const word = /^\S*/u.exec(next.text)![0].length + 1;
  return room > last.size && room > (word * (next.right - next.x)) / Math.max(1, next.text.length);
}

/**
 * A paragraph's last line ends short after a sentence; a title's or a label's, short before a capital or a digit; an
 * entry of a table of contents or an index, at its leader dots and page number, however long; a clause's, at the
 * sentence's end before the next clause's number.
 */
const endsBlock = (last: Line, line: Line, right: number): boolean =>
  LEADER.test(last.text.slice(-200)) ||
  (short(last, line, right) && (SENTENCE_END.test(last.text) || OPENS_SENTENCE.test(line.text))) ||
  (SENTENCE_END.test(last.text) && CLAUSE.test(line.text));

/** A line opening a list item: its marker ('-' or 'N.'), undefined for other lines. */
const marker = (text: string): string | undefined => {
  const number = NUMBERED.exec(text);
  if (number) return `${Number(number[1])}.`;
  return BULLET.test(text) ? '-' : undefined;
};

/** Whether `line` continues the block ending in `last` (the same paragraph, item or heading). */
function continues(
  block: Block,
  line: Line,
  level: number | undefined,
  body: BodyStyle,
  rightOf: Map<Line['column'], number>,
): boolean {
  const last = block.lines[block.lines.length - 1]!;
  const right = rightOf.get(last.column) ?? last.right;
  if (block.kind === 'table') return aligned(last, line);
  if (line.cells.length > 1) return false;
  const leading = body.leading || body.size * 1.2;
  const gap = last.y - line.y;
  const size = Math.max(line.size, last.size);
  if (block.kind === 'heading') {
    return level === block.level && gap > 0 && gap <= size * 1.6 && line.column === last.column;
  }
  if (level !== undefined) return false;
  const restyled = Math.abs(sizeKey(line.size) - sizeKey(last.size)) > 0.5 || line.bold !== last.bold;
  if (restyled && !(line.scanned && last.scanned)) return false;
  const midSentence = !SENTENCE_END.test(last.text);
  if (line.column !== last.column || gap < 0) {
    // the next column, or a line drawn higher up: the paragraph goes on only mid-sentence, from a full line
    const next = line.column === last.column || line.column === last.column + 1;
    return next && midSentence && !short(last, line, right);
  }
  if (gap > leading * PARAGRAPH_GAP + 0.5) return false;
  if (marker(line.text) !== undefined && !(midSentence && block.kind === 'paragraph')) return false;
  if (endsBlock(last, line, right)) return false;
  const first = block.lines[0]!;
  if (block.kind === 'item') return line.x > first.x + line.size * 0.5;
  // an indented first line is where a paragraph starts: lines after it sit left of it
  const left = block.left ?? first.x;
  return line.x <= left + line.size;
}

/** Two table rows: as many cells, each starting or ending where the one above does (left or right aligned). */
function aligned(above: Line, row: Line): boolean {
  if (above.cells.length !== row.cells.length || row.y >= above.y || above.y - row.y > row.size * 3) return false;
  const slack = row.size;
  return row.cells.every((cell, i) => {
    const over = above.cells[i]!;
    return Math.abs(cell.x - over.x) <= slack || Math.abs(cell.right - over.right) <= slack;
  });
}

/** Characters of scripts written without spaces between words (Chinese, Japanese), their punctuation, full widths. */
const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u3000-\\u303f\\uff00-\\uffef';
const CJK_END = new RegExp(`[${CJK}]$`, 'u');
const CJK_START = new RegExp(`^[${CJK}]`, 'u');

/**
 * Lines joined into one: a word hyphenated across lines is rejoined ("in-" "formation"), "North-" "East" kept, and
 * lines of Chinese or Japanese joined without a space (those scripts put none between words; Korean does).
 */
export function joinLines(lines: readonly string[]): string {
  // joined once at the end, each line tested on its own: a paragraph of many lines stays linear
  const parts: string[] = [];
  for (const line of lines) {
    const last = parts[parts.length - 1];
    const end = last?.slice(-2) ?? '';
    if (last !== undefined && /\p{Ll}-$/u.test(end) && /^\p{Ll}/u.test(line))
      parts[parts.length - 1] = last.slice(0, -1) + line;
    else if (last !== undefined && /\S-$/u.test(end)) parts[parts.length - 1] = last + line;
    else if (last !== undefined && CJK_END.test(end) && CJK_START.test(line)) parts[parts.length - 1] = last + line;
    else parts.push(line);
  }
  return parts.join(' ');
}

/**
 * The page's lines as markdown blocks. `page` is the page's number (an outline entry names the page it opens),
 * `outline` the document's entries (each makes one heading, the first line that names it near its page).
 */
export function linesToMarkdown(lines: readonly Line[], body: BodyStyle, page: number, outline?: OutlineIndex): string {
  const rightOf = new Map<Line['column'], number>([[0, body.right]]);
  for (const line of lines) rightOf.set(line.column, Math.max(rightOf.get(line.column) ?? 0, line.right));
  const blocks: Block[] = [];
  for (const line of lines) {
    const level = headingLevel(line, body, outline, page);
    const block = blocks[blocks.length - 1];
    if (block && continues(block, line, level, body, rightOf)) {
      block.lines.push(line);
      if (block.kind === 'paragraph') block.left = Math.min(block.left ?? line.x, line.x);
      continue;
    }
    if (level !== undefined) {
      blocks.push({ kind: 'heading', level, lines: [line] });
      continue;
    }
    const opens = marker(line.text);
    if (line.cells.length > 1) blocks.push({ kind: 'table', lines: [line] });
    else blocks.push(opens ? { kind: 'item', marker: opens, lines: [line] } : { kind: 'paragraph', lines: [line] });
  }
  return render(blocks);
}

function render(blocks: readonly Block[]): string {
  const out: string[] = [];
  let listLeft: number[] = [];
  blocks.forEach((block, i) => {
    const text = joinLines(block.lines.map((l) => l.text));
    // more lines in large type than a heading wraps to are a lead paragraph or a pull quote
    if (block.kind === 'heading' && block.lines.length <= MAX_HEADING_LINES)
      out.push(`${'#'.repeat(block.level)} ${text}`);
    else if (block.kind === 'heading') out.push(text);
    else if (block.kind === 'table') out.push(block.lines.length > 1 ? table(block.lines) : text);
    else if (block.kind === 'paragraph') out.push(literal(text));
    else {
      const x = block.lines[0]!.x;
      if (blocks[i - 1]?.kind !== 'item') listLeft = [x];
      // nesting: one level per marker position further right than the list's first, up to three
      while (listLeft.length > 1 && x < listLeft[listLeft.length - 1]! - block.lines[0]!.size) listLeft.pop();
      if (x > listLeft[listLeft.length - 1]! + block.lines[0]!.size && listLeft.length < 4) listLeft.push(x);
      const depth = listLeft.length - 1;
      const item = `${'    '.repeat(depth)}${block.marker} ${text.replace(block.marker === '-' ? BULLET : NUMBERED, '')}`;
      if (blocks[i - 1]?.kind === 'item') out[out.length - 1] += `\n${item}`;
      else out.push(item);
    }
  });
  return out.join('\n\n');
}

/**
 * The pages' markdown as one document, a paragraph that runs on to the next page joined into one: the page's last
 * block a paragraph that ends mid-sentence, the next page's first a paragraph that opens in lower case.
 */
export function joinPages(pages: readonly string[]): string {
  /** Each block as its pieces, one per page it runs over. */
  const blocks: string[][] = [];
  for (const page of pages) {
    if (!page) continue;
    const own = page.split('\n\n');
    const open = blocks[blocks.length - 1];
    const last = open?.[open.length - 1];
    const first = own[0]!;
    const runsOn =
      open !== undefined &&
      !PARAGRAPH_NOT.test(open[0]!) &&
      !last!.includes('\n') &&
      !SENTENCE_END.test(last!) &&
      /^\p{Ll}/u.test(first) &&
      !first.includes('\n');
    if (runsOn) open.push(own.shift()!);
    for (const block of own) blocks.push([block]);
  }
  return blocks.map((pieces) => joinLines(pieces)).join('\n\n');
}

/**
 * A paragraph whose text opens as markdown would read it ("# This file was generated", a "> quote", "---") escaped by
 * a backslash, so that it stays a paragraph.
 */
export const literal = (text: string): string => (MARKDOWN_START.test(text) ? `\\${text}` : text);

/** Table rows as a markdown table, the first row its header. */
function table(rows: readonly Line[]): string {
  const cell = (text: string) => text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|');
  const row = (line: Line) => `| ${line.cells.map((c) => cell(c.text)).join(' | ')} |`;
  const rule = `| ${rows[0]!.cells.map(() => '---').join(' | ')} |`;
  return [row(rows[0]!), rule, ...rows.slice(1).map(row)].join('\n');
}
