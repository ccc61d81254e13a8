// Rails made of repeated items (other stories, deals): every part of the block with text is an item of one shape,
// but for a short label. A story's own text with links in it, or a column of several page parts, is not.
import { isTag, isText, type Element } from 'domhandler';

import type { Measure, Measures } from './measure.js';

/** A label among a rail's items ("More local news", "Sponsored") is this short, without links. */
export const MAX_LABEL = 60;

/**
 * Whether `rail` is made of `min` or more repeated items: below it (through wrappers holding all of its `count`
 * links), every child with text is an item (`isItem`), but for one short unlinked label (none inside a wrapper
 * gone through: the label was beside it). Beside the wrappers gone through lies at most a label's worth of text
 * (60 characters): a wrapper that holds the story's last paragraph and the rail is not the rail.
 */
export function repeatsItems(
  rail: Element,
  count: ReadonlyMap<Element, number>,
  measures: Measures,
  isItem: (el: Element, m: Measure) => boolean,
  min: number,
): boolean {
  const all = count.get(rail) ?? 0;
  let box = rail;
  // what sits beside the wrappers gone through is at most the label (not the story's last paragraphs)
  let beside = 0;
  for (;;) {
    const inner = box.children.find((c): c is Element => isTag(c) && count.get(c) === all);
    if (!inner) break;
    beside += (measures.get(box)?.text ?? 0) - (measures.get(inner)?.text ?? 0);
    box = inner;
  }
  if (beside > MAX_LABEL) return false;
  let n = 0;
  let labels = box === rail ? 0 : 1;
  for (const c of box.children) {
    if (isText(c)) {
      if (c.data.trim()) return false;
      continue;
    }
    if (!isTag(c)) continue;
    const m = measures.get(c);
    if (!m || m.text === 0) continue;
    if (isItem(c, m)) n++;
    else if (m.text <= MAX_LABEL && m.link === 0 && labels++ === 0) continue;
    else return false;
  }
  return n >= min;
}
