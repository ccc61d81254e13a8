// A FAQ right after the story's body, which the container walk left behind as a small sibling.
import { isTag, isText, type AnyNode, type Element } from 'domhandler';

import type { Measure, Measures } from './measure.js';

/** Ancestors of the container (itself included) whose next siblings are searched. */
const MAX_LEVELS = 3;

/** The FAQ holds at most this share of the container's prose: more is a page of its own (a site's FAQ, a hub). */
const MAX_SHARE = 0.2;

/** Prose between the container and the FAQ that ends the search: something else follows the story. */
const MAX_BETWEEN = 100;

/** Characters read at the start of a block to find its title. */
const LEAD = 60;

/** The title of a FAQ block: "FAQ", "FAQs", "Frequently asked questions", "Event planning FAQs". */
const FAQ_TITLE = /\b(?:FAQs?|frequently asked questions)\b/i;

/**
 * The FAQ block that follows the chosen container, when nothing with prose stands between them (the container, or
 * one of its nearest ancestors, is the FAQ's previous sibling) and the FAQ is small beside the story. The container
 * walk follows the child holding 80% of the text, so a story's closing FAQ (often a sibling of the rich-text body, in
 * the page builder's own block) stays behind. Null when there is none.
 */
export function findTrailingFaq(container: Element, measures: Measures): Element | null {
  const prose = measures.get(container)?.prose ?? 0;
  let between = 0;
  let node: Element = container;
  for (let level = 0; level < MAX_LEVELS; level++) {
    for (let next = node.next; next; next = next.next) {
      if (!isTag(next)) continue;
      const m = measures.get(next);
      if (!m || m.text === 0) continue;
      if (FAQ_TITLE.test(leadingText(next))) return isAnswered(m) && m.prose <= MAX_SHARE * prose ? next : null;
      between += m.prose;
      if (between >= MAX_BETWEEN) return null;
    }
    const parent = node.parent;
    if (!parent || !isTag(parent) || parent.name === 'body') return null;
    node = parent;
  }
  return null;
}

/** Share of the FAQ's text that its prose must make: answers, not questions that link to other pages. */
const MIN_PROSE_SHARE = 0.6;

function isAnswered(m: Measure): boolean {
  return m.prose >= MIN_PROSE_SHARE * m.text;
}

/** The first `LEAD` characters of the block's text (its title, when it opens with one), read without a full walk. */
function leadingText(el: Element): string {
  let out = '';
  const stack: AnyNode[] = [el];
  while (stack.length && out.length < LEAD) {
    const n = stack.pop()!;
    if (isText(n)) out += n.data.trim() + ' ';
    else if (isTag(n)) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out.slice(0, LEAD);
}
