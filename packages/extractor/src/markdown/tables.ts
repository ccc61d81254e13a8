import type { Budget } from './budget.js';
import type { Block } from './container.js';

export type Align = '' | 'left' | 'center' | 'right';

export interface TableCell {
  blocks: Block[];
  header: boolean;
  colspan: number;
  rowspan: number;
  align: Align;
}

export interface TableRow {
  cells: TableCell[];
  /** The row sits in `<thead>`. */
  head: boolean;
}

export interface TableModel {
  rows: TableRow[];
  caption: Block[];
  /** `role="presentation"` or `"none"`. */
  presentation: boolean;
  /** A table was nested inside one of its cells. */
  nested: boolean;
}

/** Browsers clamp `colspan` to 1000 and `rowspan` to 65534. */
const MAX_COLSPAN = 1000;
const MAX_ROWSPAN = 65_534;
/** A cell with more blocks than this holds page layout, not data. */
const MAX_DATA_CELL_BLOCKS = 3;
/** Spans that would grow the grid past this many slots per cell (plus a margin) make a layout table. */
const MAX_SPAN_GROWTH = 8;
const SPAN_MARGIN = 256;

const EMPTY: TableCell = { blocks: [], header: false, colspan: 1, rowspan: 1, align: '' };

/**
 * A spanning cell of at most this much text is repeated into the slots it spans (a label, a value); a longer one is
 * written once, so that a paragraph spanning thousands of rows does not become thousands of paragraphs.
 */
const MAX_REPEATED_TEXT = 100;

function repeatable(cell: TableCell): boolean {
  let length = 0;
  for (const block of cell.blocks) if ((length += block.text.length) > MAX_REPEATED_TEXT) return false;
  return true;
}

export function spanOf(value: string | undefined, max: number): number {
  if (value === undefined) return 1;
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, max) : 1;
}

export const colspanOf = (value: string | undefined): number => spanOf(value, MAX_COLSPAN);
export const rowspanOf = (value: string | undefined): number => spanOf(value, MAX_ROWSPAN);

/** Alignment from `align` or an inline `text-align`. */
export function alignOf(attribs: Record<string, string>): Align {
  let value = attribs.align?.toLowerCase();
  if (!value && attribs.style?.includes('text-align')) value = /text-align\s*:\s*(\w+)/i.exec(attribs.style)?.[1];
  value = value?.toLowerCase();
  return value === 'left' || value === 'center' || value === 'right' ? value : '';
}

/** A cell of the row above still spanning down: what each row below shows in that column, and for how many rows. */
interface Carried {
  cell: TableCell;
  rows: number;
}

/**
 * Rows with spans expanded, so every column lines up and every row reads whole (as pandoc writes pipe tables): a
 * header cell's text fills each column its `colspan` covers (`Sleep (min)` heads both NREM and REM), a data cell's
 * extra columns stay empty, and a `rowspan` cell's slots are repeated into the rows below it. A header alone in its
 * row is a title over the rows below (`Chapter 11. Indexes`), not a column's name: written once. A cell of more than
 * `MAX_REPEATED_TEXT` characters is written once too, its other slots empty.
 */
function grid(rows: readonly TableRow[], budget: Budget): TableCell[][] {
  const pending: (Carried | undefined)[] = [];
  const out: TableCell[][] = [];
  const take = (line: TableCell[], c: number): void => {
    const carried = pending[c]!;
    if (--carried.rows === 0) pending[c] = undefined;
    line.push(carried.cell);
  };
  for (const row of rows) {
    const line: TableCell[] = [];
    const title = row.cells.length === 1 && !pending.some((carried) => carried !== undefined);
    for (const cell of row.cells) {
      budget.tick();
      while (pending[line.length] !== undefined) take(line, line.length);
      const col = line.length;
      const repeat = (cell.colspan > 1 || cell.rowspan > 1) && repeatable(cell);
      for (let k = 0; k < cell.colspan; k++) {
        const slot = k === 0 || (cell.header && !title && repeat) ? cell : EMPTY;
        line.push(slot);
        if (cell.rowspan > 1) pending[col + k] = { cell: repeat ? slot : EMPTY, rows: cell.rowspan - 1 };
      }
    }
    for (let c = line.length; c < pending.length; c++) {
      if (pending[c] === undefined) continue;
      while (line.length < c) line.push(EMPTY);
      take(line, c);
    }
    out.push(line);
  }
  return out;
}

function isLayout(model: TableModel, cells: readonly TableCell[][], columns: number, total: number): boolean {
  if (model.presentation || model.nested) return true;
  const hasHeader = cells[0]!.some((c) => c.header);
  if (!hasHeader && (columns <= 1 || cells.length === 1)) return true;
  // Ragged tables would need many padding cells: a sign of layout, and a guard against quadratic output.
  if (columns * cells.length > 4 * total + 64) return true;
  for (const row of cells) {
    for (const cell of row) {
      if (cell.blocks.length > MAX_DATA_CELL_BLOCKS) return true;
      for (const block of cell.blocks) if (block.kind === 'heading' || block.kind === 'table') return true;
    }
  }
  return false;
}

function cellText(cell: TableCell): string {
  let text = cell.blocks.length === 1 ? cell.blocks[0]!.text : cell.blocks.map((b) => b.text).join('<br>');
  if (text.includes('\n')) text = text.replace(/\n/g, '<br>');
  if (text.includes('|')) text = text.replace(/\|/g, '\\|');
  return text;
}

const DELIMITER: Record<Align, string> = { '': '---', left: ':---', center: ':---:', right: '---:' };

/**
 * A GFM table with a header row (the first row when the HTML has none), or, for a layout table, the cells'
 * blocks in reading order.
 */
export function renderTable(model: TableModel, budget: Budget): Block[] {
  // a few cells spanning thousands of rows and columns would fill a grid (and a markdown table) a thousand times
  // the size of the input: such a table is layout, read cell by cell, without ever building the grid
  let given = 0;
  let spanned = 0;
  model.rows.forEach((row, r) => {
    given += row.cells.length;
    for (const cell of row.cells) spanned += cell.colspan * Math.min(cell.rowspan, model.rows.length - r);
  });
  if (spanned > MAX_SPAN_GROWTH * given + SPAN_MARGIN) {
    const out: Block[] = [...model.caption];
    for (const row of model.rows) for (const cell of row.cells) out.push(...cell.blocks);
    return out;
  }
  const cells = grid(model.rows, budget);
  let columns = 0;
  let total = 0;
  for (const row of cells) {
    columns = Math.max(columns, row.length);
    total += row.length;
  }
  const out: Block[] = [...model.caption];
  if (columns === 0 || !cells.some((row) => row.some((cell) => cell.blocks.length > 0))) return out;
  if (isLayout(model, cells, columns, total)) {
    // each cell once: the grid repeats a spanning cell in every slot it covers
    for (const row of model.rows) for (const cell of row.cells) out.push(...cell.blocks);
    return out;
  }
  const lines: string[] = [];
  const header = cells[0]!;
  const line = (row: readonly TableCell[]): string => {
    let s = '|';
    for (let c = 0; c < columns; c++) {
      budget.tick();
      const cell = row[c];
      const text = cell === undefined || cell === EMPTY ? '' : cellText(cell);
      s += text === '' ? ' |' : ` ${text} |`;
    }
    return s;
  };
  lines.push(line(header));
  let delimiter = '|';
  for (let c = 0; c < columns; c++) delimiter += ` ${DELIMITER[header[c]?.align ?? '']} |`;
  lines.push(delimiter);
  for (let r = 1; r < cells.length; r++) lines.push(line(cells[r]!));
  out.push({ kind: 'table', text: lines.join('\n') });
  return out;
}
