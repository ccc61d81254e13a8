// Blocks after a story's end: rails, deal boxes, paywall prompts that follow the story's last paragraph. One walk in
// document order that counts the story's prose before each block and what follows the first one found.
import { isTag, type Element } from 'domhandler';

import type { Measure, Measures } from './measure.js';
import { CODE_TAGS } from './tags.js';
import type { Doomed } from './trace.js';

/** The story before such a block holds at least this much prose (a one-paragraph summary), and what follows it less. */
export const MIN_STORY = 100;

/**
 * The blocks of `container` (itself excluded) that `isBlock` accepts, in document order, outermost first, when 100
 * of prose come before the first and what follows it (outside the blocks and blocks already dropped) holds less than
 * that: the story has ended. Empty otherwise. `mayHold` tells where to look: an element it rejects counts as prose
 * whole until a block is found (after it, each is walked, so that blocks dropped already do not count).
 */
export function blocksAfterStory(
  container: Element,
  measures: Measures,
  doomed: Doomed,
  mayHold: (el: Element) => boolean,
  isBlock: (el: Element, m: Measure, proseBefore: number) => boolean,
): Element[] {
  const blocks: Element[] = [];
  let prose = 0;
  let atFirst = 0;
  const stack: Element[] = [container];
  while (stack.length) {
    const el = stack.pop()!;
    const m = measures.get(el);
    if (!m || doomed.has(el)) continue;
    if (CODE_TAGS.has(el.name) || (blocks.length === 0 && !mayHold(el))) {
      prose += m.prose;
      continue;
    }
    if (el !== container && prose >= MIN_STORY && isBlock(el, m, prose)) {
      if (blocks.length === 0) atFirst = prose;
      blocks.push(el);
      continue;
    }
    let childProse = 0;
    for (let i = el.children.length - 1; i >= 0; i--) {
      const c = el.children[i]!;
      if (!isTag(c)) continue;
      stack.push(c);
      childProse += measures.get(c)?.prose ?? 0;
    }
    prose += Math.max(0, m.prose - childProse);
  }
  return blocks.length > 0 && prose - atFirst < MIN_STORY ? blocks : [];
}
