// Blocks after a story's end: rails, deal boxes, paywall prompts that follow the story's last paragraph. One walk in
// document order that counts the story's prose before each block and what follows the first one found.
import { isTag, type Element, type ParentNode } from 'domhandler';

import { elements } from '../dom/walk.js';
import type { Measure } from './measure.js';
import { CODE_TAGS } from './tags.js';
import type { Doomed } from './trace.js';

/** The story before such a block holds at least this much prose (a one-paragraph summary), and what follows it less. */
export const MIN_STORY = 100;

/**
 * The blocks of `container` (itself excluded) that `isBlock` accepts, in document order, outermost first, when 100
 * of prose come before the first (or, given a `headline`, the first comes after it) and what follows it (outside the
 * blocks and blocks already dropped) holds less than that: the story has ended. Empty otherwise. `mayHold` tells
 * where to look: an element it rejects counts as prose whole until a block is found (after it, each is walked, so
 * that blocks dropped already do not count). `headline`: the title of a page that names one story, whose HTML may
 * hold none under it (a paywall stub, a page whose story a script fetches): its end is where the story may end.
 */
export function blocksAfterStory(
  container: Element,
  measures: Map<Element, Measure>,
  doomed: Doomed,
  mayHold: (el: Element) => boolean,
  isBlock: (el: Element, m: Measure, proseBefore: number) => boolean,
  headline: Element | null = null,
): Element[] {
  const blocks: Element[] = [];
  let prose = 0;
  let atFirst = 0;
  // the headline's ancestors in the container: the walk has passed it once it leaves one of them whole, or it
  const toHeadline = new Set<Element>();
  for (let p = headline; p && p !== container && isTag(p); p = p.parent as Element | null) toHeadline.add(p);
  let passed = false;
  const stack: Element[] = [container];
  while (stack.length) {
    const el = stack.pop()!;
    const m = measures.get(el);
    if (!m || doomed.has(el)) continue;
    if (CODE_TAGS.has(el.name) || el === headline || (blocks.length === 0 && !mayHold(el))) {
      prose += m.prose;
      if (toHeadline.has(el)) passed = true;
      continue;
    }
    if (el !== container && (prose >= MIN_STORY || passed) && isBlock(el, m, prose)) {
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

/** Finds, when first asked, the page's one `<h1>` under `root`: its headline; null when it has none or several. */
export function headlineOf(root: ParentNode): () => Element | null {
  let found: Element | null | undefined;
  return () => {
    if (found !== undefined) return found;
    found = null;
    for (const el of elements(root)) {
      if (el.name !== 'h1') continue;
      if (found) return (found = null);
      found = el;
    }
    return found;
  };
}
