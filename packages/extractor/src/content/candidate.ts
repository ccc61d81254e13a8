// When the container walk finds no dominant child: the page's title block, or its densest run of prose.
import { isTag, type Element, type ParentNode } from 'domhandler';

import { contains, elements } from '../dom/walk.js';
import { blockValue, type Measures } from './measure.js';
import { INLINE_TAGS } from './tags.js';
import { isLinkedTitle } from './teasers.js';

/** Prose value of the shortest article: a news brief of a few sentences. */
const MIN_PROSE = 150;

/** Share of the page's prose that a candidate found by density must hold; below it the page has no main block. */
const MIN_PROSE_SHARE = 0.4;

/** The candidate grows to its parent while that adds at most this much text (title, byline, dateline above). */
const CLIMB_TEXT = 1.5;

/** The story under the headline holds at least this share of the page's prose... */
const TITLED_MIN_SHARE = 0.15;

/** ...and this share of the densest prose found elsewhere on the page. */
const TITLED_PROSE_SHARE = 0.5;

/** A candidate holding this share of the page's plain text is the page itself, not a part of it. */
const MAX_PLAIN_SHARE = 0.9;

/**
 * The main block of a page where no child dominates: the lowest ancestor of the page's one `<h1>` that holds a
 * news brief's worth of prose (the story under its headline), or else the densest run of prose, unless the page
 * holds more teaser titles than that prose (a front page, a listing). Null when there is no such block: the page
 * has no main content candidate.
 */
export function findCandidate(root: ParentNode, measures: Measures): Element | null {
  let pageProse = 0;
  let pagePlain = 0;
  for (const c of root.children) {
    if (!isTag(c)) continue;
    const m = measures.get(c);
    if (m) {
      pageProse += m.prose;
      pagePlain += m.text - m.link;
    }
  }
  const plainOf = (el: Element): number => {
    const m = measures.get(el);
    return m ? m.text - m.link : 0;
  };
  const fits = (el: Element | null): el is Element => el !== null && plainOf(el) < MAX_PLAIN_SHARE * pagePlain;
  let titled = underTitle(root, measures);
  // a headline block with a small part of the page's prose is a banner, not the story
  if (titled && (measures.get(titled)?.prose ?? 0) < TITLED_MIN_SHARE * pageProse) titled = null;
  const dense = densest(root, measures, pageProse);
  if (!fits(titled)) return fits(dense) ? dense : null;
  if (!fits(dense) || titled === dense || contains(titled, dense)) return titled;
  if (contains(dense, titled)) return dense;
  // headline block and densest prose apart: the block holding both (a header above the body of the article)...
  for (let p = titled.parent; p && p !== root && isTag(p); p = p.parent) {
    if (contains(p, dense)) return fits(p) ? p : null;
  }
  // ...or, when only the page holds both, the story under the headline unless the prose elsewhere is far longer
  const prose = (el: Element): number => measures.get(el)?.prose ?? 0;
  return prose(titled) >= TITLED_PROSE_SHARE * prose(dense) ? titled : dense;
}

/** The lowest ancestor of the page's single `<h1>` that holds a brief's worth of prose. */
function underTitle(root: ParentNode, measures: Measures): Element | null {
  let h1: Element | null = null;
  for (const el of elements(root)) {
    if (el.name !== 'h1') continue;
    if (h1) return null;
    h1 = el;
  }
  for (let p = h1?.parent; p && p !== root && isTag(p); p = p.parent) {
    if ((measures.get(p)?.prose ?? 0) >= MIN_PROSE) return p;
  }
  return null;
}

/**
 * The element holding the page's densest run of prose: each text block (a paragraph, a list item, a div of text)
 * counts for its parent, and half for its grandparent; the winner takes in its parent while that adds little text.
 */
function densest(root: ParentNode, measures: Measures, pageProse: number): Element | null {
  const score = new Map<Element, number>();
  let best: Element | null = null;
  let bestScore = 0;
  let titles = 0;
  const add = (el: Element, v: number): void => {
    const s = (score.get(el) ?? 0) + v;
    score.set(el, s);
    if (s > bestScore) [best, bestScore] = [el, s];
  };
  for (const el of elements(root)) {
    if (INLINE_TAGS.has(el.name)) continue;
    const m = measures.get(el);
    if (!m) continue;
    if (isLinkedTitle(el, measures)) titles += m.text;
    if (m.own === 0) continue;
    const value = blockValue(m.own, m.ownLink, m.ownPunct, el.name);
    const parent = el.parent;
    if (value <= 0 || !parent || parent === root || !isTag(parent)) continue;
    add(parent, value);
    const grand = parent.parent;
    if (grand && grand !== root && isTag(grand)) add(grand, value / 2);
  }
  let found = best as Element | null;
  if (!found) return null;
  const text = measures.get(found)?.text ?? 0;
  for (let p = found.parent; p && p !== root && isTag(p); p = p.parent) {
    if ((measures.get(p)?.text ?? 0) > CLIMB_TEXT * text) break;
    found = p;
  }
  const m = measures.get(found);
  if (!m || m.prose < MIN_PROSE || m.prose < MIN_PROSE_SHARE * pageProse) return null;
  // a front page or a listing: its teaser titles outweigh the densest prose (a footer blurb, a notice)
  if (titles > m.text) return null;
  return found;
}
