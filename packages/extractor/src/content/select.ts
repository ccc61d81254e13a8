// Choosing the main-content container: walk down from the body while one child dominates.
import { isTag, type Element, type ParentNode } from 'domhandler';

import { looksLikeComments } from './hints.js';
import type { Measure } from './measure.js';

/** A child is followed when it holds at least this share of its parent's plain (non-link) text... */
const PLAIN_SHARE = 0.8;
/** ...and at least this share of all its parent's text (so an intro paragraph never beats a list of links). */
const TEXT_SHARE = 0.3;

/** Prose beside a dominant comment section (or a Q&A page's answers) that is the post they answer. */
const QUESTION_PROSE = 150;

/** Blocks of text, never containers: stopping above them keeps their neighbours (code, tables, lists). */
const TEXT_BLOCKS: ReadonlySet<string> = new Set(['p', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote']);

/**
 * Walks down from `root` while a single child holds nearly all of the plain text and a fair share of all text.
 * Stops where the content spreads over several children (paragraphs, posts, list items). Returns `null` when
 * the root itself is that place. It also stops where the dominant child is a comment section (or, on a page that
 * declares itself a Q&A page, `qa`, any child) and its siblings hold a post's worth of prose: the opening post or the
 * question stays with its replies.
 */
export function selectContainer(root: ParentNode, measures: Map<Element, Measure>, qa = false): Element | null {
  let best: Element | null = null;
  let node: ParentNode = root;
  for (;;) {
    let plain = 0;
    let text = 0;
    let top: Element | null = null;
    let topPlain = -1;
    let prose = 0;
    for (const child of node.children) {
      if (!isTag(child)) continue;
      const m = measures.get(child);
      if (!m) continue;
      const p = m.text - m.link;
      plain += p;
      text += m.text;
      prose += m.prose;
      if (p > topPlain) {
        topPlain = p;
        top = child;
      }
    }
    if (!top) return best;
    // the node's own inline text counts as content that a child would leave behind
    const own = node === root ? undefined : measures.get(node as Element);
    if (own) {
      plain = own.text - own.link;
      text = own.text;
    }
    const next = measures.get(top)!;
    if (
      ((qa || looksLikeComments(top)) && prose - next.prose >= QUESTION_PROSE) ||
      TEXT_BLOCKS.has(top.name) ||
      plain <= 0 ||
      topPlain < PLAIN_SHARE * plain ||
      next.text < TEXT_SHARE * text
    ) {
      return best;
    }
    best = top;
    node = top;
  }
}
