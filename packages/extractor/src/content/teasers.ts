// Teaser grids inside an article: "more stories" cards, each a linked title with a date or an excerpt.
import { isTag, type AnyNode, type Element } from 'domhandler';

import { walkInOrder, type Measures } from './measure.js';
import { HEADING_TAGS } from './tags.js';
import { ruleOff, type Doomed, type Trace } from './trace.js';

/** Class words of a title element that is not a heading tag (`<div class="title"><a>`). */
const TITLE_CLASS = /(?:^|[\s_-])(?:title|headline)(?:$|[\s_-])/i;

/** A teaser card holds at most this many characters: a title, a date, a line of excerpt. */
const MAX_TEASER = 600;
/** At least this many sibling cards make a grid. */
const MIN_TEASERS = 3;
/** The cards must be most of their parent's text... */
const TEASER_SHARE = 0.6;
/** ...and the grid a minor part of the container, so a listing page (all cards) stays whole. */
const MAX_GRID_SHARE = 0.4;

/** Grids that start before this share of the container's text are part of the page (service cards, a menu). */
const MIN_POSITION = 0.5;

/** Prose value the container must hold outside the grids (an article, not a listing of sections). */
const MIN_OTHER_PROSE = 1500;

/**
 * Drops groups of three or more sibling teaser cards (each holding exactly one linked title: a heading or a
 * `title` element whose text is a link) that are a minor part of the container: related-post grids and "more
 * stories" rows after an article. Listings, where the cards are the content, keep them.
 */
export function dropTeaserGroups(
  container: Element,
  measures: Measures,
  total: number,
  doomed: Doomed,
  trace?: Trace,
): void {
  const titles = countLinkedTitles(container, measures);
  const groups: Element[] = [];
  let groupText = 0;
  let groupProse = 0;
  walkInOrder(container, measures, (el, m, before) => {
    if (doomed.has(el)) return true;
    if (
      el === container ||
      before < MIN_POSITION * total ||
      (titles.get(el) ?? 0) < MIN_TEASERS ||
      m.text >= MAX_GRID_SHARE * total
    ) {
      return false;
    }
    let cards = 0;
    let cardText = 0;
    for (const c of el.children) {
      if (!isTag(c) || titles.get(c) !== 1) continue;
      const t = measures.get(c)?.text ?? 0;
      if (t > MAX_TEASER) continue;
      cards++;
      cardText += t;
    }
    if (cards < MIN_TEASERS || cardText < TEASER_SHARE * m.text) return false;
    groups.push(el);
    groupText += m.text;
    groupProse += m.prose;
    return true;
  });
  // all the grids together are a minor part, beside an article's worth of prose: otherwise the page is a listing
  const prose = measures.get(container)?.prose ?? 0;
  if (groups.length === 0) return;
  if ((groupText >= MAX_GRID_SHARE * total || prose - groupProse < MIN_OTHER_PROSE) && !ruleOff('teaser-grid-kept')) {
    for (const g of groups) trace?.mark(g, 'teaser-grid');
    return;
  }
  for (const g of groups) doomed.drop(g, 'teaser-grid');
}

/** For every element under `root`: how many linked titles it holds (a linked title counts once, not its parts). */
function countLinkedTitles(root: Element, measures: Measures): Map<Element, number> {
  const counts = new Map<Element, number>();
  // iterative post-order: children are counted before their parent
  // the walk's stack, and beside it whether each element's children were pushed (two arrays: no pair an element)
  const stack: Element[] = [root];
  const done: boolean[] = [false];
  while (stack.length) {
    const el = stack.pop()!;
    if (!done.pop()) {
      stack.push(el);
      done.push(true);
      for (const c of el.children) {
        if (isTag(c)) {
          stack.push(c);
          done.push(false);
        }
      }
      continue;
    }
    if (isLinkedTitle(el, measures)) {
      counts.set(el, 1);
      continue;
    }
    let n = 0;
    for (const c of el.children) if (isTag(c)) n += counts.get(c) ?? 0;
    if (n > 0) counts.set(el, n);
  }
  return counts;
}

/** A heading (or `title` element) whose text is a link to another page: the title of a teaser. */
export function isLinkedTitle(el: Element, measures: Measures): boolean {
  if (!HEADING_TAGS.has(el.name) && !TITLE_CLASS.test(el.attribs['class'] ?? '')) return false;
  const m = measures.get(el);
  return m !== undefined && m.text >= 10 && m.link >= 0.8 * m.text && linksAway(el);
}

/** Whether the title links to another page (an FAQ question toggling its answer links to `#`). */
function linksAway(title: Element): boolean {
  const stack: AnyNode[] = [...title.children];
  if (title.name === 'a') stack.push(title);
  while (stack.length) {
    const n = stack.pop()!;
    if (!isTag(n)) continue;
    if (n.name === 'a') {
      const href = n.attribs['href']?.trim() ?? '';
      return href !== '' && !href.startsWith('#') && !/^javascript:/i.test(href) && !/#$/.test(href);
    }
    for (const c of n.children) stack.push(c);
  }
  return false;
}
