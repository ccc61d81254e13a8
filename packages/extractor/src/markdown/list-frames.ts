import type { Budget } from './budget.js';
import { type Block, Container } from './container.js';
import { type ListItem, renderList } from './lists.js';
import type { Stack } from './stack.js';

interface ListFrame {
  ordered: boolean;
  start?: number;
  reversed: boolean;
  keepEmpty: boolean;
  items: ListItem[];
  gap: Container;
  parent: Container;
}

export function integer(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) ? n : undefined;
}

/** `<ul>`, `<ol>` and `<li>` as they stream in: items collected per list, written at the list's end. */
export class ListFrames {
  readonly #stack: Stack;
  readonly #budget: Budget;
  readonly #keepEmpty: boolean;
  readonly #lists: ListFrame[] = [];

  constructor(stack: Stack, budget: Budget, keepEmpty: boolean) {
    this.#stack = stack;
    this.#budget = budget;
    this.#keepEmpty = keepEmpty;
  }

  /** Opens a list; false when it is converted as a plain block instead (`cur` inline-only or nested too deep). */
  openList(ordered: boolean, attribs: Record<string, string>, cur: Container, maxNesting: number): boolean {
    const stack = this.#stack;
    if (cur.inlineOnly || stack.nesting >= maxNesting) return stack.boundary(cur);
    const list = this.#start(ordered, attribs, cur);
    stack.frames.push({ close: () => this.#end(list) });
    return true;
  }

  /** Opens an item (a stray `<li>` outside a list starts a list of its own); `footnote` its note's label. */
  openItem(attribs: Record<string, string>, cur: Container, maxNesting: number, footnote: string | undefined): boolean {
    const stack = this.#stack;
    if (cur.inlineOnly) return stack.boundary(cur);
    let list = this.#lists[this.#lists.length - 1];
    let stray = false;
    if (!list || cur !== list.gap) {
      if (stack.nesting >= maxNesting) return stack.boundary(cur);
      list = this.#start(false, {}, cur);
      stray = true;
    }
    this.#flushGap(list);
    const item = new Container('item');
    const value = integer(attribs.value);
    stack.push(item);
    const owner = list;
    stack.frames.push({
      close: () => {
        stack.pop();
        const entry: ListItem = { blocks: item.takeBlocks(), loose: item.sawParagraph };
        if (value !== undefined) entry.value = value;
        if (footnote !== undefined) entry.footnote = footnote;
        if (item.droppedLink && entry.blocks.length === 0) entry.emptied = true;
        owner.items.push(entry);
        if (stray) this.#end(owner);
      },
    });
    return true;
  }

  /**
   * Blocks converted elsewhere that were an `<li>` (a `role="tab"` item holding more than a label): an item of the
   * list `cur` is the gap of, else blocks of `cur`.
   */
  addItem(blocks: Block[], loose: boolean, cur: Container): void {
    const list = this.#lists[this.#lists.length - 1];
    if (!list || cur !== list.gap) {
      for (const block of blocks) cur.pushBlock(block);
      return;
    }
    this.#flushGap(list);
    if (blocks.length > 0) list.items.push({ blocks, loose });
  }

  #start(ordered: boolean, attribs: Record<string, string>, cur: Container): ListFrame {
    const list: ListFrame = {
      ordered,
      reversed: ordered && attribs.reversed !== undefined,
      keepEmpty: this.#keepEmpty,
      items: [],
      gap: new Container('gap'),
      parent: cur,
    };
    if (ordered) {
      const start = integer(attribs.start);
      if (start !== undefined) list.start = start;
    }
    this.#lists.push(list);
    this.#stack.push(list.gap);
    this.#stack.nesting++;
    return list;
  }

  #end(list: ListFrame): void {
    this.#flushGap(list);
    this.#stack.pop();
    this.#lists.pop();
    this.#stack.nesting--;
    if (list.items.length === 0) return;
    list.parent.pushBlock(renderList(list.items, list, list.parent.previousBlock(), this.#budget));
    this.#budget.check();
  }

  /** Content of a list outside its items: a nested list joins the previous item, anything else is an item. */
  #flushGap(list: ListFrame): void {
    const blocks = list.gap.takeBlocks();
    if (blocks.length === 0) return;
    const last = list.items[list.items.length - 1];
    if (last && blocks.every((b) => b.kind === 'list')) last.blocks.push(...blocks);
    else list.items.push({ blocks, loose: false });
  }
}
