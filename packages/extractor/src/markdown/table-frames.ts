import type { Budget } from './budget.js';
import { isGutter } from './code.js';
import { Container } from './container.js';
import { NONE, type Stack } from './stack.js';
import { alignOf, colspanOf, renderTable, rowspanOf, type TableModel, type TableRow } from './tables.js';

interface TableFrame {
  model: TableModel;
  gap: Container;
  parent: Container;
  row: TableRow | null;
  head: boolean;
}

/** `<table>` and its parts as they stream in: cells collected into a model, written at the table's end. */
export class TableFrames {
  readonly #stack: Stack;
  readonly #budget: Budget;
  readonly #tables: TableFrame[] = [];
  /** Cells open at once (a line break in one is written `<br>`). */
  cells = 0;

  constructor(stack: Stack, budget: Budget) {
    this.#stack = stack;
    this.#budget = budget;
  }

  /** Tables open at once. */
  get depth(): number {
    return this.#tables.length;
  }

  openTable(attribs: Record<string, string>, cur: Container, maxNesting: number): boolean {
    const stack = this.#stack;
    if (cur.inlineOnly || stack.nesting >= maxNesting) return stack.boundary(cur);
    const role = attribs.role?.toLowerCase();
    const table: TableFrame = {
      model: { rows: [], caption: [], presentation: role === 'presentation' || role === 'none', nested: false },
      gap: new Container('gap'),
      parent: cur,
      row: null,
      head: false,
    };
    this.#tables.push(table);
    stack.push(table.gap);
    stack.nesting++;
    stack.frames.push({
      close: () => {
        this.#flushGap(table);
        stack.pop();
        this.#tables.pop();
        stack.nesting--;
        const outer = this.#tables[this.#tables.length - 1];
        if (outer) outer.model.nested = true;
        for (const block of renderTable(table.model, this.#budget)) table.parent.pushBlock(block);
        this.#budget.check();
      },
    });
    return true;
  }

  openCaption(cur: Container): boolean {
    const table = this.#table(cur);
    if (!table) return this.#stack.boundary(cur);
    this.#flushGap(table);
    const caption = new Container('caption');
    this.#stack.push(caption);
    this.#stack.frames.push({
      close: () => {
        this.#stack.pop();
        table.model.caption.push(...caption.takeBlocks());
      },
    });
    return true;
  }

  openSection(name: string, cur: Container): boolean {
    const table = this.#table(cur);
    if (!table) return this.#stack.boundary(cur);
    const previous = table.head;
    table.head = name === 'thead';
    this.#stack.frames.push({ close: () => (table.head = previous) });
    return true;
  }

  openRow(cur: Container): boolean {
    const table = this.#table(cur);
    if (!table) return this.#stack.boundary(cur);
    this.#flushGap(table);
    table.row = { cells: [], head: table.head };
    table.model.rows.push(table.row);
    this.#stack.frames.push(NONE);
    return true;
  }

  openCell(name: string, attribs: Record<string, string>, cur: Container): boolean {
    const table = this.#table(cur);
    const stack = this.#stack;
    if (!table) return stack.boundary(cur);
    if (isGutter(attribs)) return false;
    this.#flushGap(table);
    if (!table.row) {
      table.row = { cells: [], head: table.head };
      table.model.rows.push(table.row);
    }
    const row = table.row;
    const cell = new Container('cell', '<br>');
    stack.push(cell);
    this.cells++;
    stack.frames.push({
      close: () => {
        stack.pop();
        this.cells--;
        this.#budget.tick();
        row.cells.push({
          blocks: cell.takeBlocks(),
          header: name === 'th' || row.head,
          colspan: colspanOf(attribs.colspan),
          rowspan: rowspanOf(attribs.rowspan),
          align: alignOf(attribs),
        });
      },
    });
    return true;
  }

  /** The table whose content `cur` is directly (outside its cells), if any. */
  #table(cur: Container): TableFrame | undefined {
    const table = this.#tables[this.#tables.length - 1];
    return table && cur === table.gap ? table : undefined;
  }

  /** Content inside a table but outside its cells goes before the table, as browsers do. */
  #flushGap(table: TableFrame): void {
    for (const block of table.gap.takeBlocks()) table.parent.pushBlock(block);
  }
}
