// Which repeated blocks are copies: a page rendered twice repeats long runs of blocks, items repeat their boilerplate.
import type { Element } from 'domhandler';

import type { Doomed } from './trace.js';

/** A text block of the container in document order, as `dropRepeats` meets it. */
export interface TextBlock {
  el: Element;
  text: string;
  /** Its text was met before. */
  repeat: boolean;
  /** Long enough to be judged as a copy (shorter blocks only extend or break runs). */
  judged: boolean;
  /** A heading, or a block whose text is half or more links (a linked title, a call to action). */
  label: boolean;
}

/** A repeated block met this many times in all is an item's boilerplate ("Not valid with other offers", a credit). */
const ITEM_REPEATS = 3;
/** ...unless it sits in a run of this many judged repeats in a row: a second rendering of the same content. */
const COPY_RUN = 3;

/**
 * Dooms the repeated blocks that are copies. A block repeated in every item of a list (a coupon's terms, a webcam's
 * credit, a card's feature line: three times or more) stays, as each item shows it; a run of three or more repeated
 * blocks in a row (a mobile copy of the page, a story printed twice) goes, and so do a block seen only twice and a
 * repeated heading or link (each post's "Re: <thread title>", each card's "Compare deals" call to action).
 */
export function doomCopies(blocks: readonly TextBlock[], doomed: Doomed): void {
  const count = new Map<string, number>();
  for (const b of blocks) if (b.judged) count.set(b.text, (count.get(b.text) ?? 0) + 1);
  let i = 0;
  while (i < blocks.length) {
    if (!blocks[i]!.repeat) {
      i++;
      continue;
    }
    let j = i;
    let run = 0;
    for (; j < blocks.length && blocks[j]!.repeat; j++) if (blocks[j]!.judged) run++;
    for (let k = i; k < j; k++) {
      const b = blocks[k]!;
      if (b.judged && (run >= COPY_RUN || b.label || (count.get(b.text) ?? 0) < ITEM_REPEATS))
        doomed.drop(b.el, 'repeat');
    }
    i = j;
  }
}
