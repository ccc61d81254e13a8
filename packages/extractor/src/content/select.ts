// Choosing the main-content container: walk down from the body while one child dominates.
import { isTag, type Element, type ParentNode } from 'domhandler';

import { contains, elements, hasText } from '../dom/walk.js';
import { looksLikeComments } from './hints.js';
import type { Measures } from './measure.js';
import type { SubtreeMemo } from '../dom/subtree-memo.js';
import { NO_CARDS, type CardTally } from './teaser-cards.js';
import { ruleOff, type Trace } from './trace.js';

/** A child is followed when it holds at least this share of its parent's plain (non-link) text... */
const PLAIN_SHARE = 0.8;
/** ...and at least this share of all its parent's text (so an intro paragraph never beats a list of links). */
const TEXT_SHARE = 0.3;

/** Prose beside a dominant comment section (or a Q&A page's answers) that is the post they answer. */
const QUESTION_PROSE = 150;

/**
 * Item grids before the dominant child that hold this share of its text stop the walk: a collection's grid of products
 * above a long description, which outweighs the grid in plain text (the grid's names are links).
 */
const GRID_SHARE = 0.3;
/** ...and at least this much text: a few products, not a strip of three badges. */
const MIN_GRID = 500;

/**
 * Where no child dominates, the child holding the page's title is followed when it holds this share of the plain
 * text...
 */
const TITLED_PLAIN = 0.5;
/** ...at least this much text (a story or an item, not a header above a grid)... */
const TITLED_MIN = 500;
/** ...and this many times the prose of any other child (not an opening post above its replies, half and half). */
const TITLED_PROSE = 2;

/** Blocks of text, never containers: stopping above them keeps their neighbours (code, tables, lists). */
const TEXT_BLOCKS: ReadonlySet<string> = new Set(['p', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote']);

/** What the walk is told about the page besides its measures. */
export interface WalkHints {
  /** The page declares itself a Q&A page: the question stays with its answers. */
  qa?: boolean;
  /** A declared article's teaser cards (`teaserCards`). */
  cards?: SubtreeMemo<CardTally>;
  /** Item grids (`itemGrids`), on pages that do not declare an article. */
  grids?: SubtreeMemo<number>;
  /** Records the grids that stopped the walk (`item-grid`). */
  trace?: Trace;
  /** Filled with the children holding the grids that stopped the walk: the page's own grid, for the cleaning. */
  stoppedBy?: Element[];
}

/**
 * Walks down from `root` while a single child holds nearly all of the plain text and a fair share of all text.
 * Stops where the content spreads over several children (paragraphs, posts, list items). Returns `null` when
 * the root itself is that place. It also stops where the dominant child is a comment section (or, on a page that
 * declares itself a Q&A page, `qa`, any child) and its siblings hold a post's worth of prose: the opening post or the
 * question stays with its replies. Given `cards` (a declared article's teaser cards), where no child dominates it
 * looks again with the cards' text left out (`beyondTeasers`): a story above rows of "more stories" cards that
 * outweigh it. Given `grids`, it stops where item grids before the dominant child hold 30% of its text (500
 * characters at least): a collection's products above the category's description. Where no child dominates and no
 * teaser cards decide, the child holding the page's one `<h1>` is followed when it clearly outweighs its siblings
 * (`titledChild`).
 */
export function selectContainer(
  root: ParentNode,
  measures: Measures,
  { qa = false, cards, grids, trace, stoppedBy }: WalkHints = {},
): Element | null {
  let best: Element | null = null;
  let node: ParentNode = root;
  let title: Element | null | undefined;
  /** The walk followed the child holding the title: it goes no lower than the title's block. */
  let titled: Element | null = null;
  for (;;) {
    const s = spread(node, root, measures);
    if (!s.top) return best;
    // the opening post or the question stays with its replies
    if ((qa || looksLikeComments(s.top)) && s.prose - measures.get(s.top)!.prose >= QUESTION_PROSE) return best;
    let next = dominates(s) ? s.top : cards ? beyondTeasers(node, root, measures, cards) : null;
    if (!next && !ruleOff('title-block')) {
      next = titledChild(node, s, (title ??= pageTitle(root)), measures);
      if (next) trace?.mark(next, 'title-block');
      titled = next && title ? title : null;
    } else if (next && titled && !contains(next, titled)) {
      // below the block the title heads, the walk does not leave the title behind
      return best;
    }
    if (!next) return best;
    // a list item above its sub-list, a post above its replies: the rest of the item goes with it
    if (node !== root && holdsItsLike(next, node as Element)) return best;
    if (grids && next === s.top) {
      const before = gridsBefore(node, s.top, grids);
      const text = before.reduce((n, g) => n + grids.get(g), 0);
      if (text >= MIN_GRID && text >= GRID_SHARE * measures.get(s.top)!.text && !ruleOff('item-grid')) {
        for (const g of before) trace?.mark(g, 'item-grid');
        stoppedBy?.push(...before);
        return best;
      }
    }
    best = next;
    node = next;
  }
}

/** The page's one `<h1>` with text; null when it has none or several. */
function pageTitle(root: ParentNode): Element | null {
  let h1: Element | null = null;
  for (const el of elements(root)) {
    if (el.name !== 'h1' || !hasText(el)) continue;
    if (h1) return null;
    h1 = el;
  }
  return h1;
}

/**
 * Where no child of `node` dominates, the child holding the page's title (the block the title heads, against rails,
 * asides and teasers beside it) when it holds half of the plain text, a fair share of all text, 500 characters, and
 * twice the prose of any other child; null otherwise.
 */
function titledChild(node: ParentNode, s: Spread, title: Element | null, measures: Measures): Element | null {
  if (!title) return null;
  const child = node.children.find((c): c is Element => isTag(c) && (c === title || contains(c, title)));
  const m = child && measures.get(child);
  if (!child || !m || TEXT_BLOCKS.has(child.name)) return null;
  if (m.text - m.link < TITLED_PLAIN * s.plain || m.text < TEXT_SHARE * s.text || m.text < TITLED_MIN) return null;
  for (const c of node.children) {
    if (c !== child && isTag(c) && m.prose < TITLED_PROSE * (measures.get(c)?.prose ?? 0)) return null;
  }
  return child;
}

/**
 * Whether `child`, or one of its children, holds an element shaped like `item` (same tag, class and children's tags
 * and classes): `item` is then one level of a structure nested in itself, whose own part (the item's text, the post
 * above its replies) is as much the content as the levels below. A layout's `row` inside a `row` has other columns;
 * an element with no class must be a list item.
 */
function holdsItsLike(child: Element, item: Element): boolean {
  // unclassed divs share a shape without being one structure
  if (item.name !== 'li' && !item.attribs['class']) return false;
  const shape = shapeOf(item);
  for (const c of child.children) {
    if (!isTag(c)) continue;
    if (shapeOf(c) === shape) return true;
    for (const g of c.children) if (isTag(g) && shapeOf(g) === shape) return true;
  }
  return false;
}

/** Tag and class of an element and of its child elements. */
function shapeOf(el: Element): string {
  let shape = `${el.name}.${el.attribs['class'] ?? ''}>`;
  for (const c of el.children) if (isTag(c)) shape += `${c.name}.${c.attribs['class'] ?? ''} `;
  return shape;
}

/** The children of `node` before `top` that hold item grids. */
function gridsBefore(node: ParentNode, top: Element, grids: SubtreeMemo<number>): Element[] {
  const found: Element[] = [];
  for (const c of node.children) {
    if (c === top) break;
    if (isTag(c) && grids.get(c) > 0) found.push(c);
  }
  return found;
}

/** What the walk reads of a node's children (text of teaser cards left out when asked). */
interface Spread {
  /** The child with the most plain text. */
  top: Element | null;
  topPlain: number;
  topText: number;
  /** Plain text and text of the node: its children's, or its own measure (which counts its own inline run too). */
  plain: number;
  text: number;
  /** Prose of the children. */
  prose: number;
  /** Text left out of `text` (the teaser cards'). */
  leftOut: number;
}

function spread(node: ParentNode, root: ParentNode, measures: Measures, cards?: SubtreeMemo<CardTally>): Spread {
  const s: Spread = { top: null, topPlain: -1, topText: 0, plain: 0, text: 0, prose: 0, leftOut: 0 };
  for (const child of node.children) {
    if (!isTag(child)) continue;
    const m = measures.get(child);
    if (!m) continue;
    const t = cards ? cards.get(child) : NO_CARDS;
    const p = m.text - m.link - t.plain;
    s.plain += p;
    s.text += m.text - t.text;
    s.prose += m.prose;
    s.leftOut += t.text;
    if (p > s.topPlain) {
      s.top = child;
      s.topPlain = p;
      s.topText = m.text - t.text;
    }
  }
  // the node's own inline text counts as content that a child would leave behind
  const own = node === root ? undefined : measures.get(node as Element);
  if (own) {
    const t = cards ? cards.get(node as Element) : NO_CARDS;
    s.plain = own.text - own.link - t.plain;
    s.text = own.text - t.text;
    s.leftOut = t.text;
  }
  return s;
}

/** Whether the walk follows the top child: it holds nearly all of the plain text and a fair share of all text. */
function dominates(s: Spread): s is Spread & { top: Element } {
  return (
    s.top !== null &&
    !TEXT_BLOCKS.has(s.top.name) &&
    s.plain > 0 &&
    s.topPlain >= PLAIN_SHARE * s.plain &&
    s.topText >= TEXT_SHARE * s.text
  );
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
  measures: Measures,
  cards: SubtreeMemo<CardTally>,
): Element | null {
  // the story must be one child with an article's worth of prose: without one, the cards need not be counted
  let story = false;
  for (const child of node.children) if (isTag(child) && (measures.get(child)?.prose ?? 0) >= STORY_PROSE) story = true;
  if (!story) return null;
  const s = spread(node, root, measures, cards);
  if (s.leftOut < MIN_CARD_SHARE * (s.text + s.leftOut) || !dominates(s)) return null;
  return measures.get(s.top)!.prose >= STORY_PROSE ? s.top : null;
}
