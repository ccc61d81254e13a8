// The second pass: page chrome (navigation, headers, footers, banners, share bars, overlays, comment sections) goes,
// unless it holds much of the page's text.
import { isTag, type AnyNode, type Element, type ParentNode } from 'domhandler';

import { holdersOf } from '../dom/walk.js';
import {
  isComponentFooter,
  looksLikeAuthorBox,
  looksLikeChrome,
  looksDesktopOnly,
  looksLikeComments,
  looksLikeContent,
  looksLikeForum,
  looksLikeOverlay,
  looksLikeReviews,
  looksLikePostChrome,
  looksLikeTestimonials,
} from './hints.js';
import { isFootnoteList } from './footnote-lists.js';
import { inSentence, MAX_SENTENCE_PART } from './in-sentence.js';
import { detachMeasured, type Measure, type Measures } from './measure.js';
import { CODE_TAGS } from './tags.js';
import { ruleOff, type DropRule, type Trace } from './trace.js';

/** Prose that a page must hold besides a comment section for the section to go (a thread of comments stays). */
const COMMENTS_MIN_REST = 2000;

/** The same on a page that declares itself an article: its comments are readers' replies, never the story. */
export const ARTICLE_COMMENTS_MIN_REST = 300;

/** Customer reviews go with less text around them: a product page's description is often short. */
const REVIEWS_MIN_REST = 500;

/** An author box with less text than this is a byline ("By Jane Doe, March 3"), which stays with the title. */
const AUTHOR_BOX_MIN = 80;

/** Prose that a component's own footer (`banner__footer`) holds when it is a call-out's text, not its buttons. */
const FOOTER_PROSE = 100;

/** Characters that must remain after removing link-only chrome that holds much of the page's text. */
const MENU_MIN_REST = 200;

/** Tables: a desktop-only block holding one stays (`looksDesktopOnly`). */
const TABLES: ReadonlySet<string> = new Set(['table']);

const IN_MENU = 1;
const IN_THREAD = 2;

/**
 * Removes chrome (navigation, headers, footers, banners, share bars) unless it holds much of the page's text, and
 * brings `measures` up to date (`detachMeasured`): afterwards they measure the tree without the chrome.
 */
export function removeChrome(
  root: ParentNode,
  measures: Measures,
  total: number,
  totalValue: number,
  articleCommentsMinRest: number | null,
  trace?: Trace,
): void {
  const doomed: AnyNode[] = [];
  // a consent manager's policy text, a modal's, the footer's and the menus' are not the page's own text beside its
  // comments
  const pageValue = totalValue - overlayProse(root, measures);
  // chrome made only of links (mega menus) goes even when it holds much of the text, if enough text remains
  const menus: AnyNode[] = [];
  let removed = 0;
  let menuText = 0;
  // a table shown only on large screens is data too wide for a phone, not chrome (read once, when first needed)
  let tables: Set<ParentNode> | undefined;
  // inner removals of a menu are still made when the menu itself stays; their text counts once
  // a comment section that stays (the page is its thread) stays whole: its nested reply lists are the thread too
  // the walk's stack: the nodes, and beside each whether it is in a menu (`IN_MENU`) and in a thread (`IN_THREAD`)
  const stack: AnyNode[] = [...root.children];
  const flags: number[] = stack.map(() => 0);
  while (stack.length) {
    const node = stack.pop()!;
    const flag = flags.pop()!;
    const inMenu = (flag & IN_MENU) !== 0;
    const inThread = (flag & IN_THREAD) !== 0;
    if (!isTag(node)) continue;
    const el = node;
    const m = measures.get(el);
    if (!m || m.text === 0 || CODE_TAGS.has(el.name)) {
      continue;
    }
    const ruled = chromeRule(el, m, () => (tables ??= holdersOf(root, TABLES)));
    const chrome = ruled && !ruleOff(ruled) ? ruled : null;
    const isChrome = chrome !== null;
    if (chrome && (m.text < 0.4 * total || ruleOff('large-chrome'))) {
      doomed.push(el);
      trace?.drop(el, chrome);
      if (!inMenu) removed += m.text;
      continue;
    }
    // link-only chrome (mega menus) and overlays (consent managers, modals) go whatever their share of the text
    const isMenu = !inMenu && ((isChrome && m.link >= 0.9 * m.text) || looksLikeOverlay(el));
    if (isMenu) {
      menus.push(el);
      menuText += m.text;
    } else if (isChrome) trace?.mark(el, 'large-chrome');
    // comments go when the page has a substantial text of its own besides them
    // customer testimonials are a service page's content; on a declared article they are furniture like comments
    const comments =
      !inThread && (looksLikeComments(el) || (articleCommentsMinRest !== null && looksLikeTestimonials(el)));
    if (comments && !ruleOff('comments')) {
      const rest = pageValue - m.prose;
      if (
        ruleOff('discussion') ||
        rest >= (looksLikeReviews(el) ? REVIEWS_MIN_REST : COMMENTS_MIN_REST) ||
        (articleCommentsMinRest !== null &&
          !looksLikeForum(el) &&
          proseBefore(el, root, measures) >= articleCommentsMinRest)
      ) {
        doomed.push(el);
        trace?.drop(el, 'comments');
        if (!inMenu && !isMenu) removed += m.text;
        continue;
      }
      trace?.mark(el, 'discussion');
    }
    const childFlag = (inMenu || isMenu ? IN_MENU : 0) | (inThread || comments ? IN_THREAD : 0);
    for (const c of el.children) {
      stack.push(c);
      flags.push(childFlag);
    }
  }
  if (menus.length && !ruleOff('menu') && (total - removed - menuText >= MENU_MIN_REST || ruleOff('menu-needed'))) {
    doomed.push(...menus);
    for (const m of menus) trace?.drop(m, 'menu');
  } else for (const m of menus) if (isTag(m)) trace?.mark(m, 'menu-needed');
  detachMeasured(root, doomed, measures);
}

/**
 * Which chrome rule `el` falls under, if any: a forum post's chrome, chrome by tag, role or class words (not when its
 * class also says content, nor a component's own footer holding prose), an author box with a bio, a block shown only
 * on large screens (unless it holds a table: `tables` answers the elements that do).
 */
function chromeRule(el: Element, m: Measure, tables: () => Set<ParentNode>): DropRule | null {
  if (looksLikePostChrome(el)) return 'post-chrome';
  if (
    looksLikeChrome(el) &&
    !looksLikeContent(el) &&
    !(m.prose >= FOOTER_PROSE && isComponentFooter(el)) &&
    !isFootnoteList(el) &&
    !(m.text <= MAX_SENTENCE_PART && inSentence(el))
  ) {
    return 'chrome';
  }
  if (m.text >= AUTHOR_BOX_MIN && looksLikeAuthorBox(el)) return 'author-box';
  if (looksDesktopOnly(el) && !looksLikeContent(el) && !tables().has(el)) return 'desktop-only';
  return null;
}

/** Prose of the page's overlays, footer and navigation (`looksLikeOverlay`): never its own text. */
function overlayProse(root: ParentNode, measures: Measures): number {
  let n = 0;
  const stack: AnyNode[] = [...root.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    if (looksLikeOverlay(node)) n += measures.get(node)?.prose ?? 0;
    else for (const c of node.children) stack.push(c);
  }
  return n;
}

/** Prose of the page before `el` in document order (the article above its comments). */
function proseBefore(el: Element, root: ParentNode, measures: Measures): number {
  let n = 0;
  for (let node: AnyNode | null = el; node && node !== root; node = node.parent) {
    for (let prev = node.prev; prev; prev = prev.prev) if (isTag(prev)) n += measures.get(prev)?.prose ?? 0;
  }
  return n;
}
