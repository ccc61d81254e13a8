/**
 * A PDF page's text as lines in reading order, from pdf.js's text items (strings placed on the page, each with its
 * font and position). pdf.js gives the items in the order the page draws them; the lines keep their position, size
 * and weight, from which `structure.ts` reads paragraphs, headings and lists. A page of two columns, told by the long
 * lines on each side of its middle, is read column by column between the full-width lines above and below them.
 */
import { type Piece, readingOrder } from './bidi.js';

/** A pdf.js text item (`getTextContent().items`). */
export interface TextItem {
  str: string;
  /** The text matrix: [a, b, c, d, x, y], y from the page's bottom. */
  transform: number[];
  width: number;
  fontName: string;
  /** pdf.js's direction of the item's text ('rtl' for Hebrew or Arabic, which it gives in reading order). */
  dir?: string;
}

/** A pdf.js text style; the patched worker (`pdf.worker.patch`) adds the font's name and flags. */
export interface TextStyle {
  crawlkitFontName?: string;
  crawlkitFontFlags?: number;
}

/** A line of text: the items on one baseline, within one column. */
export interface Line {
  text: string;
  /** Left and right edge, in points. */
  x: number;
  right: number;
  /** Baseline, in points from the page's bottom. */
  y: number;
  /** Font size in points, the mean over its characters. */
  size: number;
  /** Most of its characters are in a bold face. */
  bold: boolean;
  /**
   * Most of its characters are an OCR engine's invisible text layer over a scanned page (Tesseract's and OCRmyPDF's
   * GlyphLessFont), set in whatever size fits each word's box: its size and weight say nothing.
   */
  scanned: boolean;
  /** 0 on a page of one column and for full-width lines, 1 and 2 for the left and right column. */
  column: 0 | 1 | 2;
  /** The runs of text a wide gap separates on the line (a table row's cells); one for running text. */
  cells: Cell[];
}

export interface Cell {
  text: string;
  x: number;
  right: number;
}

/** A gap wider than this many font sizes between items on a baseline separates fragments (columns, cells). */
const FRAGMENT_GAP = 1.5;
/** A font whose name says bold, black or heavy; or whose flags force bold (PDF 32000 §9.8.2, bit 19). */
const BOLD_NAME = /bold|black|heavy|semibold|demi/i;
const FORCE_BOLD = 1 << 18;
/** Share of a column's half of the page its median fragment spans, in a page of two columns of running text. */
const COLUMN_FILL = 0.6;
/** Fragments each column needs for a page to read as two columns. */
const MIN_COLUMN_FRAGMENTS = 2;

interface Fragment {
  text: string;
  x: number;
  right: number;
  y: number;
  chars: number;
  sizeSum: number;
  boldChars: number;
  scannedChars: number;
  /** Fragments on one baseline share a row. */
  row: number;
  /** Its items' texts in the page's order (left to right), for a fragment of right-to-left text (`readingOrder`). */
  pieces: Piece[];
  rtlChars: number;
}

/** The font of an OCR text layer (Tesseract, OCRmyPDF). */
const OCR_FONT = /GlyphLess/i;

const isBold = (style: TextStyle | undefined): boolean =>
  style !== undefined &&
  (BOLD_NAME.test(style.crawlkitFontName ?? '') || ((style.crawlkitFontFlags ?? 0) & FORCE_BOLD) !== 0);

/** The page's items joined into fragments: runs of text on one baseline without a wide gap. */
function fragments(items: readonly TextItem[], styles: Record<string, TextStyle>): Fragment[] {
  const out: Fragment[] = [];
  let current: Fragment | undefined;
  let currentSize = 0;
  let row = 0;
  for (const item of items) {
    // pdf.js spans a gap with a whitespace item (273 points wide between a label and its value): the gap is measured
    // between the items of text either side of it instead
    if (!item.str.trim()) continue;
    const [a = 0, b = 0, c = 0, d = 0, x = 0, y = 0] = item.transform;
    const size = Math.hypot(c, d) || Math.hypot(a, b) || 1;
    const chars = item.str.trim().length;
    const style = styles[item.fontName];
    const bold = isBold(style);
    const scanned = OCR_FONT.test(style?.crawlkitFontName ?? '');
    const em = Math.max(size, currentSize);
    const sameRow = current !== undefined && Math.abs(y - current.y) <= em * 0.5;
    if (!sameRow && current !== undefined) row++;
    if (current && sameRow && x >= current.right - em * 0.5 && x - current.right <= em * FRAGMENT_GAP) {
      // the last character only: a line drawn glyph by glyph stays linear
      const space = x - current.right > em * 0.15 && !/\s/.test(current.text.at(-1)!) && !/^\s/.test(item.str);
      current.text += (space ? ' ' : '') + item.str;
      current.pieces.push({ text: item.str, rtl: item.dir === 'rtl', space });
      current.right = Math.max(current.right, x + item.width);
    } else {
      if (current && current.chars > 0) out.push(current);
      current = {
        text: item.str,
        x,
        right: x + item.width,
        y,
        chars: 0,
        sizeSum: 0,
        boldChars: 0,
        scannedChars: 0,
        row,
        pieces: [{ text: item.str, rtl: item.dir === 'rtl', space: false }],
        rtlChars: 0,
      };
    }
    current.chars += chars;
    current.sizeSum += size * chars;
    if (bold) current.boldChars += chars;
    if (scanned) current.scannedChars += chars;
    if (item.dir === 'rtl') current.rtlChars += chars;
    if (chars > 0) currentSize = size;
  }
  if (current && current.chars > 0) out.push(current);
  for (const fragment of out) if (fragment.rtlChars > fragment.chars / 2) fragment.text = readingOrder(fragment.pieces);
  return out;
}

/** The least of the values (`Math.min(...values)` overflows the stack past some 100,000 of them). */
const least = (values: number[]): number => values.reduce((p, q) => (q < p ? q : p), Infinity);

const toLine = (parts: Fragment[], column: Line['column']): Line => {
  const chars = parts.reduce((n, f) => n + f.chars, 0);
  const cells = parts.map((f) => ({ text: f.text.trim().replace(/\s+/g, ' '), x: f.x, right: f.right }));
  return {
    text: parts
      .map((f) => f.text.trim())
      .join(' ')
      .replace(/\s+/g, ' '),
    x: least(parts.map((f) => f.x)),
    right: -least(parts.map((f) => -f.right)),
    y: parts[0]!.y,
    size: parts.reduce((n, f) => n + f.sizeSum, 0) / chars,
    bold: parts.reduce((n, f) => n + f.boldChars, 0) >= chars * 0.9,
    scanned: parts.reduce((n, f) => n + f.scannedChars, 0) > chars / 2,
    column,
    cells,
  };
};

/** Consecutive fragments of one row joined into lines. */
function rowsToLines(parts: Fragment[], column: Line['column']): Line[] {
  const lines: Line[] = [];
  let run: Fragment[] = [];
  for (const part of parts) {
    if (run.length && run[0]!.row !== part.row) {
      lines.push(toLine(run, column));
      run = [];
    }
    run.push(part);
  }
  if (run.length) lines.push(toLine(run, column));
  return lines;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((p, q) => p - q);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/**
 * The fragments of a page of two columns, in reading order: from the top, each full-width fragment in turn, and
 * between two of them the left column's fragments, then the right's. Undefined when the page is not two columns of
 * running text: too few fragments on a side, or short ones (labels and values, a form), which are read as drawn.
 */
function columnOrder(parts: Fragment[], left: number, right: number): Line[] | undefined {
  const middle = (left + right) / 2;
  const side = (f: Fragment): Line['column'] => (f.right <= middle ? 1 : f.x >= middle ? 2 : 0);
  const lefts = parts.filter((f) => side(f) === 1);
  const rights = parts.filter((f) => side(f) === 2);
  if (lefts.length < MIN_COLUMN_FRAGMENTS || rights.length < MIN_COLUMN_FRAGMENTS) return undefined;
  const minLeft = least(lefts.map((f) => f.x));
  const maxRight = -least(rights.map((f) => -f.right));
  const full = (values: Fragment[], span: number) => median(values.map((f) => f.right - f.x)) >= span * COLUMN_FILL;
  if (!full(lefts, middle - minLeft) || !full(rights, maxRight - middle)) return undefined;
  const top = [...parts].sort((p, q) => q.y - p.y);
  const lines: Line[] = [];
  let columns: [Fragment[], Fragment[]] = [[], []];
  const flush = () => {
    lines.push(...rowsToLines(columns[0], 1), ...rowsToLines(columns[1], 2));
    columns = [[], []];
  };
  for (const part of top) {
    const at = side(part);
    if (at === 0) {
      flush();
      lines.push(...rowsToLines([part], 0));
    } else columns[at - 1]!.push(part);
  }
  flush();
  return lines;
}

/**
 * The page's lines in reading order. `left` and `right` are the page's edges (its view box), whose middle a page of
 * two columns is split at.
 */
export function pageLines(
  items: readonly TextItem[],
  styles: Record<string, TextStyle>,
  left: number,
  right: number,
): Line[] {
  const parts = fragments(items, styles);
  return columnOrder(parts, left, right) ?? rowsToLines(parts, 0);
}
