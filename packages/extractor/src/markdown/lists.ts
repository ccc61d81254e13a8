import { joinBlocks, prefixLines } from './blocks.js';
import type { Budget } from './budget.js';
import type { Block } from './container.js';

export interface ListItem {
  blocks: Block[];
  /** The item held a `<p>`: CommonMark renders the whole list loose. */
  loose: boolean;
  /** `<li value>`: this item's number, and the next ones count on from it. */
  value?: number;
  /** Footnote definitions render as `[^label]: ...`. */
  footnote?: string;
  /** Nothing is left of it but a link the converter dropped: not written (an empty `<li>` of the page is). */
  emptied?: boolean;
}

export interface ListShape {
  ordered: boolean;
  /** First number of an ordered list (`<ol start>`); reversed lists default to the item count. */
  start?: number;
  reversed: boolean;
  /** Keep a list of empty items (raw-HTML mode, faithful to the input). @default false */
  keepEmpty?: boolean;
}

const MAX_NUMBER = 999_999_999;

/** Renders a list. `previous` is the block before it in the same container: two adjacent lists get distinct markers. */
export function renderList(
  items: readonly ListItem[],
  shape: ListShape,
  previous: Block | undefined,
  budget: Budget,
): Block {
  const loose = items.some((item) => item.loose);
  let marker: string;
  if (shape.ordered) marker = previous?.kind === 'list' && previous.marker === '.' ? ')' : '.';
  else marker = previous?.kind === 'list' && previous.marker === '-' ? '*' : '-';
  let n = shape.reversed ? (shape.start ?? items.length) : (shape.start ?? 1);
  let first: number | undefined;
  const out: string[] = [];
  // A list of nothing but empty items (icon-only links, spacers) is bullets without text: noise, dropped.
  if (!shape.keepEmpty && items.every((item) => item.blocks.length === 0)) return { kind: 'list', text: '' };
  for (const item of items) {
    budget.tick();
    // an item emptied by the converter (its icon link or skip link dropped) would be a bare marker; its number stays
    if (item.emptied && !shape.keepEmpty) {
      if (shape.ordered) n = (item.value ?? n) + (shape.reversed ? -1 : 1);
      continue;
    }
    // `- ---` would read as one thematic break: a rule that starts an item is written `***`.
    const blocks =
      item.blocks[0]?.kind === 'hr' ? [{ kind: 'hr' as const, text: '***' }, ...item.blocks.slice(1)] : item.blocks;
    const content = joinBlocks(blocks, !loose);
    let head: string;
    let indent: string;
    if (item.footnote !== undefined) {
      head = `[^${item.footnote}]: `;
      indent = '    ';
    } else if (shape.ordered) {
      if (item.value !== undefined) n = item.value;
      const number = Math.min(Math.max(n, 0), MAX_NUMBER);
      first ??= number;
      head = `${number}${marker} `;
      indent = ' '.repeat(head.length);
      n += shape.reversed ? -1 : 1;
    } else {
      head = `${marker} `;
      indent = '  ';
    }
    out.push(prefixLines(content, head, indent, ''));
  }
  const block: Block = { kind: 'list', text: out.join(loose ? '\n\n' : '\n'), marker };
  if (shape.ordered) block.start = first ?? 1;
  return block;
}
