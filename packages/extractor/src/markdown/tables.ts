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

/** Rows with `colspan` expanded and `rowspan` carried down as empty cells, so every column lines up. */
function grid(rows: readonly TableRow[], budget: Budget): TableCell[][] {
  const pending: number[] = [];
  const out: TableCell[][] = [];
  for (const row of rows) {
    const line: TableCell[] = [];
    const carry = (): void => {
      while ((pending[line.length] ?? 0) > 0) {
        pending[line.length]!--;
        line.push(EMPTY);
      }
    };
    for (const cell of row.cells) {
      budget.tick();
      carry();
      const col = line.length;
      line.push(cell);
      for (let k = 1; k < cell.colspan; k++) line.push(EMPTY);
      if (cell.rowspan > 1) for (let k = 0; k < cell.colspan; k++) pending[col + k] = cell.rowspan - 1;
    }
    for (let c = line.length; c < pending.length; c++) {
      if ((pending[c] ?? 0) === 0) continue;
      while (line.length < c) line.push(EMPTY);
      pending[c]!--;
      line.push(EMPTY);
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
    for (const row of cells) for (const cell of row) out.push(...cell.blocks);
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
