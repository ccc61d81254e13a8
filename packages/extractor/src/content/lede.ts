// The story's intro: paragraphs between its title and the chosen container, which the container walk left behind.
import { isTag, type Element } from 'domhandler';

import { classAndId } from './hints.js';
import type { Measure, Measures } from './measure.js';
import { INLINE_TAGS } from './tags.js';

/** A lede paragraph holds at least this many characters of plain text, with sentence punctuation. */
const MIN_LEDE = 50;

/** ...and at most this share of link text. */
const MAX_LEDE_LINKS = 0.3;

/** Together the paragraphs hold at least this many characters: an intro; a one-line standfirst alone stays out. */
const MIN_INTRO = 300;

/**
 * Above a container that is mostly a grid of items (`isGridContainer`), a shorter intro comes too: a listing's or a
 * collection's one-line description ("Discover the best mobile apps..."), which the references keep.
 */
export const GRID_INTRO = 100;

/** Whether the paragraphs of `lede` hold less than a story's intro (`MIN_INTRO`): a grid's intro line at most. */
export function isShortIntro(lede: readonly Element[], measures: Measures): boolean {
  return textOfAll(lede, measures) < MIN_INTRO;
}

/** The characters the paragraphs of `lede` hold together. */
function textOfAll(lede: readonly Element[], measures: Measures): number {
  let text = 0;
  for (const el of lede) text += measures.get(el)?.text ?? 0;
  return text;
}

/** Elements whose paragraphs describe something else than the story (an image, a form); a layout table is no such. */
const NOT_LEDE: ReadonlySet<string> = new Set(['figure', 'figcaption', 'form', 'button', 'label', 'details']);

/** Class words of what the headline block holds besides the story: bylines and bios, tooltips, disclosures. */
const NOT_LEDE_CLASS =
  /(?:^|[\s_-])(?:tool-?tips?|authors?|bio|byline|disclosure|affiliate|disclaimer)(?:$|[\s_-])|(?:^|[\s-])meta(?:$|[\s-])/i;

function isLedeParagraph(el: Element, m: Measure): boolean {
  if (INLINE_TAGS.has(el.name) || m.own === 0 || m.ownPunct === 0) return false;
  return m.own - m.ownLink >= MIN_LEDE && m.ownLink <= MAX_LEDE_LINKS * m.own;
}

/**
 * Paragraphs of prose between the page's title (the nearest `<h1>` before `container`) and `container`, in document
 * order. The container walk follows the child holding 80% of the text, so it stops at the story's body and leaves an
 * intro beside it behind (an intro wrapper before the body, a paragraph before the body's long list, intro paragraphs
 * in the headline block). Bylines, bios, tooltips, disclosures, captions and collapsed details are not the intro; nor
 * is a one-line standfirst alone (under `minIntro`, 300 characters), which most references leave out. Empty when no
 * `<h1>` comes before the container in its ancestors' earlier siblings.
 */
export function findLede(container: Element, measures: Measures, minIntro = MIN_INTRO): Element[] {
  const found: Element[][] = [];
  for (let node: Element = container; isTag(node.parent!) && node.parent.name !== 'body'; node = node.parent) {
    for (let prev = node.prev; prev; prev = prev.prev) {
      if (!isTag(prev)) continue;
      const [paragraphs, titled] = paragraphsAfterTitle(prev, measures);
      found.push(paragraphs);
      if (titled) {
        const lede = found.reverse().flat();
        return textOfAll(lede, measures) >= minIntro ? lede : [];
      }
    }
  }
  return [];
}

/** The lede paragraphs under `root` after its last `<h1>` (all of them when it has none), and whether it has one. */
function paragraphsAfterTitle(root: Element, measures: Measures): [Element[], boolean] {
  let out: Element[] = [];
  let titled = false;
  // in document order, not entering a title, what is not the lede, nor a lede paragraph: nothing in them counts (and
  // nothing asks each element whether such a block holds it, which on deep trees cost the depth per element)
  const stack: Element[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    if (el.name === 'h1') {
      out = [];
      titled = true;
      continue;
    }
    if (NOT_LEDE.has(el.name) || NOT_LEDE_CLASS.test(classAndId(el))) continue;
    const m = measures.get(el);
    if (m && isLedeParagraph(el, m)) {
      out.push(el);
      continue;
    }
    for (let i = el.children.length - 1; i >= 0; i--) {
      const c = el.children[i]!;
      if (isTag(c)) stack.push(c);
    }
  }
  return [out, titled];
}
