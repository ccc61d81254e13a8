// Choosing the main-content container: walk down from the body while one child dominates.
import { isTag, type Element, type ParentNode } from 'domhandler';

import { looksLikeComments } from './hints.js';
import type { Measure } from './measure.js';
import type { SubtreeMemo } from '../dom/subtree-memo.js';
import type { CardTally } from './teaser-cards.js';

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
 * question stays with its replies. Given `cards` (a declared article's teaser cards), where no child dominates it
 * looks again with the cards' text left out (`beyondTeasers`): a story above rows of "more stories" cards that
 * outweigh it.
 */
export function selectContainer(
  root: ParentNode,
  measures: Map<Element, Measure>,
  qa = false,
  cards?: SubtreeMemo<CardTally>,
): Element | null {
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
      const story =
        cards && !((qa || looksLikeComments(top)) && prose - next.prose >= QUESTION_PROSE)
          ? beyondTeasers(node, root, measures, cards)
          : null;
      if (!story) return best;
      best = story;
      node = story;
      continue;
    }
    best = top;
    node = top;
  }
}

/** Prose the child found past the teaser cards must hold: an article's worth. */
const STORY_PROSE = 1500;

/**
 * Share of the node's text that its teaser cards must hold: below it they are a minor part, which the cleaning's
 * teaser-grid rule drops from the container.
 */
const MIN_CARD_SHARE = 0.4;

/**
 * The child of `node` that dominates as the walk requires once the text of teaser cards is left out (rows of linked
 * titles with their dates and blurbs below a story, `teaserCards`), when those cards are 40% or more of the node's
 * text and the child holds an article's worth of prose; null otherwise.
 */
function beyondTeasers(
  node: ParentNode,
  root: ParentNode,
  measures: Map<Element, Measure>,
  cards: SubtreeMemo<CardTally>,
): Element | null {
  // the story must be one child with an article's worth of prose: without one, the cards need not be counted
  let story = false;
  for (const child of node.children) if (isTag(child) && (measures.get(child)?.prose ?? 0) >= STORY_PROSE) story = true;
  if (!story) return null;
  let plain = 0;
  let text = 0;
  let cardText = 0;
  let top: Element | null = null;
  let topPlain = -1;
  let topText = 0;
  for (const child of node.children) {
    if (!isTag(child)) continue;
    const m = measures.get(child);
    if (!m) continue;
    const t = cards.get(child);
    cardText += t.text;
    const p = m.text - m.link - t.plain;
    plain += p;
    text += m.text - t.text;
    if (p > topPlain) {
      topPlain = p;
      top = child;
      topText = m.text - t.text;
    }
  }
  if (!top) return null;
  // the node's own inline text counts as content that a child would leave behind
  const own = node === root ? undefined : measures.get(node as Element);
  let whole = text + cardText;
  if (own) {
    const t = cards.get(node as Element);
    plain = own.text - own.link - t.plain;
    text = own.text - t.text;
    cardText = t.text;
    whole = own.text;
  }
  if (
    cardText < MIN_CARD_SHARE * whole ||
    TEXT_BLOCKS.has(top.name) ||
    plain <= 0 ||
    topPlain < PLAIN_SHARE * plain ||
    topText < TEXT_SHARE * text ||
    measures.get(top)!.prose < STORY_PROSE
  ) {
    return null;
  }
  return top;
}
