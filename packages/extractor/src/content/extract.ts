// Main-content extraction: prune, measure, pick the best container, clean inside it, compact its byline.
import {
  Document,
  type Comment,
  Element,
  isCDATA,
  isComment,
  isDirective,
  isTag,
  isText,
  type AnyNode,
  type ParentNode,
} from 'domhandler';

import { parseHtml } from '../dom/parse.js';
import { contains, detachAll, holdersOf, relink } from '../dom/walk.js';
import { compactByline } from './byline.js';
import { cleanContainer } from './clean.js';
import { isStateData } from './state-data.js';
import {
  isComponentFooter,
  isHidden,
  looksLikeItemBody,
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
import { measureTree, type Measure } from './measure.js';
import { findCandidate } from './candidate.js';
import { declaredKind } from './kind.js';
import { findLede } from './lede.js';
import { findTrailingFaq } from './trailing-faq.js';
import { findSignupForms } from './signup-widgets.js';
import { selectContainer } from './select.js';
import { teaserCards } from './teaser-cards.js';
import { DROP_TAGS } from './tags.js';
import { KeepTrace, type KeepRule } from './trace.js';

export interface MainContentOptions {
  /**
   * The page URL (after redirects). Reserved for URL-based hints; the extractor works without it.
   * @default undefined
   */
  url?: string;
  /**
   * Also return the output's text grouped by the rule that kept it (`keptBy`): the benchmark's precision view.
   * @default false
   */
  explain?: boolean;
}

/** What `findMainContent` found. */
export interface MainContent {
  /** A document holding `<body>` with the main content, in document order. */
  document: Document;
  /**
   * `container`: one element of the page was chosen as its main content. `page`: the page has no candidate (no
   * element holds its content), so this is the whole page without its chrome: a last resort, worth a warning.
   */
  source: 'container' | 'page';
  /** With `explain`: the visible text of the output, grouped by the rule that kept it. */
  keptBy?: Partial<Record<KeepRule, string>>;
}

function findBody(document: Document): ParentNode {
  // the first <body> in document order, looking only inside <html> elements (nesting is capped by the parser)
  const find = (nodes: readonly AnyNode[]): Element | null => {
    for (const node of nodes) {
      if (!isTag(node)) continue;
      if (node.name === 'body') return node;
      const inner = node.name === 'html' ? find(node.children) : null;
      if (inner) return inner;
    }
    return null;
  };
  return find(document.children) ?? document;
}

/**
 * Moves elements that the parser left after `</body>` or `</html>` into the body, as browsers do (HTML's "after
 * body" insertion mode): a stray `</html>` early in a page must not cut the article off.
 */
function adoptStrayContent(document: Document, body: ParentNode): void {
  if (!isTag(body) || body.name !== 'body') return;
  const stray: AnyNode[] = [];
  // the siblings after </body> inside <html>, then the top-level nodes after <html> (or after a parentless body)
  let top: AnyNode = body;
  const parent = body.parent;
  if (parent && isTag(parent) && parent.name === 'html') {
    for (let n = body.next; n; n = n.next) if (isTag(n) || isText(n)) stray.push(n);
    top = parent;
  }
  if (top.parent !== document) return;
  for (let n = top.next; n; n = n.next) if (isTag(n) || isText(n)) stray.push(n);
  if (stray.length === 0) return;
  detachAll(stray);
  relink(body, [...body.children, ...stray]);
}

/** Removes comments, invisible elements and elements that never hold readable text. */
function prune(root: ParentNode): void {
  const doomed: AnyNode[] = [];
  const stack: AnyNode[] = [...root.children];
  // each unclosed CDATA holds the rest of the page, and a chain of them would have it parsed again and again
  let reparse = REPARSE_BUDGET;
  while (stack.length) {
    const node = stack.pop()!;
    if (isComment(node) || isDirective(node) || isCDATA(node)) {
      const size = isComment(node) ? node.data.length : 0;
      const recovered = isComment(node) && size < reparse ? reopenUnclosedCdata(node) : null;
      if (recovered) reparse -= size;
      if (recovered) for (const c of recovered) stack.push(c);
      else doomed.push(node);
      continue;
    }
    if (!isTag(node)) {
      if (isText(node) && isStateData(node)) doomed.push(node);
      continue;
    }
    const el = node;
    if (el.name === 'noscript') {
      // Some sites (forums especially) serve their whole readable content in <noscript>; keep that, drop pixels.
      if (textLength(el) >= 200) el.name = 'div';
      else {
        doomed.push(el);
        continue;
      }
    }
    if (DROP_TAGS.has(el.name) || isHidden(el)) {
      doomed.push(el);
      continue;
    }
    for (const c of el.children) stack.push(c);
  }
  detachAll(doomed);
}

/** Characters of unclosed CDATA sections parsed again on one page (a chain of them past it stays comments). */
const REPARSE_BUDGET = 32 * 1024 * 1024;

/**
 * An unclosed `<![CDATA[` in HTML swallows the rest of the page into one comment node. HTML5 ends such a bogus
 * comment at the first `>`: parse what follows it again and put it back in place of the comment.
 */
function reopenUnclosedCdata(comment: Comment): AnyNode[] | null {
  const data = comment.data;
  if (!data.startsWith('[CDATA[') || data.length < 200) return null;
  const end = data.indexOf('>');
  const parent = comment.parent;
  if (end < 0 || !parent) return null;
  const nodes = parseHtml(data.slice(end + 1)).children;
  const i = parent.children.indexOf(comment);
  parent.children.splice(i, 1, ...nodes);
  for (let k = Math.max(0, i - 1); k < Math.min(parent.children.length, i + nodes.length + 1); k++) {
    const n = parent.children[k]!;
    n.parent = parent;
    n.prev = parent.children[k - 1] ?? null;
    n.next = parent.children[k + 1] ?? null;
  }
  comment.parent = null;
  return nodes;
}

function hasText(root: ParentNode): boolean {
  const stack: AnyNode[] = [...root.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (isText(node) && /\S/.test(node.data)) return true;
    if (isTag(node)) for (const c of node.children) stack.push(c);
  }
  return false;
}

function textLength(root: ParentNode): number {
  let n = 0;
  const stack: AnyNode[] = [...root.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (isText(node)) n += node.data.trim().length;
    else if (isTag(node)) for (const c of node.children) stack.push(c);
  }
  return n;
}

/** Prose that a page must hold besides a comment section for the section to go (a thread of comments stays). */
const COMMENTS_MIN_REST = 2000;

/** The same on a page that declares itself an article: its comments are readers' replies, never the story. */
const ARTICLE_COMMENTS_MIN_REST = 300;

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

/** Removes chrome (navigation, headers, footers, banners, share bars) unless it holds much of the page's text. */
function removeChrome(
  root: ParentNode,
  measures: Map<Element, Measure>,
  total: number,
  totalValue: number,
  articleCommentsMinRest: number | null,
  trace?: KeepTrace,
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
  const stack: [node: AnyNode, inMenu: boolean, inThread: boolean][] = root.children.map((c) => [c, false, false]);
  while (stack.length) {
    const [node, inMenu, inThread] = stack.pop()!;
    if (!isTag(node)) continue;
    const el = node;
    const m = measures.get(el);
    if (!m || m.text === 0) {
      continue;
    }
    const isChrome =
      looksLikePostChrome(el) ||
      (looksLikeChrome(el) && !looksLikeContent(el) && !(m.prose >= FOOTER_PROSE && isComponentFooter(el))) ||
      (m.text >= AUTHOR_BOX_MIN && looksLikeAuthorBox(el)) ||
      (looksDesktopOnly(el) && !looksLikeContent(el) && !(tables ??= holdersOf(root, TABLES)).has(el));
    if (isChrome && m.text < 0.4 * total) {
      doomed.push(el);
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
    if (comments) {
      const rest = pageValue - m.prose;
      if (
        rest >= (looksLikeReviews(el) ? REVIEWS_MIN_REST : COMMENTS_MIN_REST) ||
        (articleCommentsMinRest !== null &&
          !looksLikeForum(el) &&
          proseBefore(el, root, measures) >= articleCommentsMinRest)
      ) {
        doomed.push(el);
        if (!inMenu && !isMenu) removed += m.text;
        continue;
      }
      trace?.mark(el, 'discussion');
    }
    for (const c of el.children) stack.push([c, inMenu || isMenu, inThread || comments]);
  }
  if (menus.length && total - removed - menuText >= MENU_MIN_REST) doomed.push(...menus);
  else for (const m of menus) if (isTag(m)) trace?.mark(m, 'menu-needed');
  detachAll(doomed);
}

/** Prose of the page's overlays, footer and navigation (`looksLikeOverlay`): never its own text. */
function overlayProse(root: ParentNode, measures: Map<Element, Measure>): number {
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
function proseBefore(el: Element, root: ParentNode, measures: Map<Element, Measure>): number {
  let n = 0;
  for (let node: AnyNode | null = el; node && node !== root; node = node.parent) {
    for (let prev = node.prev; prev; prev = prev.prev) if (isTag(prev)) n += measures.get(prev)?.prose ?? 0;
  }
  return n;
}

/** Share of the page's prose that its single `<main>` must hold to be preferred over a higher container. */
const MAIN_PROSE_SHARE = 0.2;

/** The page's one `<main>` (or `role="main"`) element; null when there is none or several. */
function findMain(root: ParentNode): Element | null {
  let found: Element | null = null;
  const stack: AnyNode[] = [...root.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    if (node.name === 'main' || node.attribs['role'] === 'main') {
      if (found) return null;
      found = node;
      continue;
    }
    for (const c of node.children) stack.push(c);
  }
  return found;
}

function totalProse(root: ParentNode, measures: Map<Element, Measure>): number {
  let n = 0;
  for (const c of root.children) if (isTag(c)) n += measures.get(c)?.prose ?? 0;
  return n;
}

/** Share of the container's prose that its item body must hold to be the container instead. */
const ITEM_BODY_PROSE_SHARE = 0.5;

/** Other item bodies beside it (teaser excerpts) hold at most this share of its prose; more is a thread or a grid. */
const OTHER_BODIES_SHARE = 0.1;

/**
 * The element under `container` that names itself the body of the page's item (an article or post:
 * `itemprop="articleBody"`, `entry-content`, `article__body`; a product: `product__description`) when it holds most
 * of the container's prose and other such bodies beside it are small (a teaser's excerpt); null when there is none,
 * or several of a size (a thread, a grid of post cards).
 */
function findItemBody(container: Element, measures: Map<Element, Measure>): Element | null {
  let found: Element | null = null;
  let foundProse = 0;
  let others = 0;
  const stack: AnyNode[] = [...container.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    if (looksLikeItemBody(node)) {
      const p = measures.get(node)?.prose ?? 0;
      if (p > foundProse) {
        others += foundProse;
        found = node;
        foundProse = p;
      } else others += p;
      continue;
    }
    for (const c of node.children) stack.push(c);
  }
  const prose = measures.get(container)?.prose ?? 0;
  return found && foundProse >= ITEM_BODY_PROSE_SHARE * prose && others <= OTHER_BODIES_SHARE * foundProse
    ? found
    : null;
}

/** A container with fewer characters than this, on a page with much more text, is a wrong pick. */
const MIN_CONTAINER = 150;

/** Returns a Document holding only the page's main content. May mutate `document`. */
export function extractMainContent(document: Document, options: MainContentOptions = {}): Document {
  return findMainContent(document, options).document;
}

/**
 * Finds the page's main content: the document holding it, and whether it is one container of the page or (no
 * candidate at all) the whole page without its chrome. May mutate `document`.
 */
export function findMainContent(document: Document, options: MainContentOptions = {}): MainContent {
  const trace = options.explain ? new KeepTrace() : undefined;
  const done = (nodes: AnyNode[], source: MainContent['source']): MainContent => {
    const out: MainContent = { document: wrap(nodes), source };
    if (trace) out.keptBy = trace.textByRule(out.document, source);
    return out;
  };
  const kind = declaredKind(document);
  const articleCommentsMinRest = kind === 'article' ? ARTICLE_COMMENTS_MIN_REST : null;
  const body = findBody(document);
  adoptStrayContent(document, body);
  const signupForms = findSignupForms(body);
  prune(body);
  let measures = measureTree(body);
  let total = 0;
  let totalValue = 0;
  for (const c of body.children) {
    if (!isTag(c)) continue;
    total += measures.get(c)?.text ?? 0;
    totalValue += measures.get(c)?.prose ?? 0;
  }
  if (total === 0) return done(body.children, 'page');
  removeChrome(body, measures, total, totalValue, articleCommentsMinRest, trace);
  measures = measureTree(body);
  // on a declared article, rows of teaser cards below the story are not its text (on other pages they may be the page)
  const cards = kind === 'article' ? teaserCards(measures) : undefined;
  let best = selectContainer(body, measures, kind === 'qa', cards) ?? (isTag(body) ? body : null);
  if (!best) return done(body.children, 'page');
  // the walk stopped above the page's one <main>, which holds most of the prose: continue from there
  const main = findMain(body);
  if (main && main !== best && contains(best, main)) {
    const prose = totalProse(body, measures);
    if ((measures.get(main)?.prose ?? 0) >= MAIN_PROSE_SHARE * prose) best = main;
  }
  // the story's or product's own body inside the chosen column (headline block, share bars, buy box, teasers beside it)
  const inner = isTag(best) ? findItemBody(best, measures) : null;
  if (inner) best = inner;
  // no dominant child from the top, or a wrong pick far too small: the densest run of prose is the candidate
  const bestText = measures.get(best)?.text ?? 0;
  const tiny = bestText < MIN_CONTAINER && total - bestText > 4 * MIN_CONTAINER;
  if (best === body || tiny) {
    const candidate = findCandidate(body, measures);
    if (candidate && (!tiny || (measures.get(candidate)?.text ?? 0) > bestText)) best = candidate;
    else if (tiny) {
      // no candidate: the whole page is the answer, cleaned as a container would be
      if (best === body && isTag(body))
        cleanContainer(body, measures, trace, articleCommentsMinRest !== null, signupForms);
      return done(body.children, 'page');
    }
  }
  // a closing FAQ that the walk left beside the story's body
  const faq = best !== body ? findTrailingFaq(best, measures) : null;
  cleanContainer(best, measures, trace, articleCommentsMinRest !== null, signupForms);
  if (!hasText(best)) return done(body.children, 'page');
  if (faq) cleanContainer(faq, measures, trace, articleCommentsMinRest !== null, signupForms);
  if (best === body) return done(best.children, 'page');
  // the container's own head; the whole page's head is what is left of the site's header
  if (isTag(best)) compactByline(best, measures);
  // the story's intro that the walk left beside its body, between the title and the container
  const lede = findLede(best, measures);
  for (const el of lede) trace?.mark(el, 'lede');
  return done(faq ? [...lede, best, faq] : [...lede, best], 'container');
}

/** A new document whose body holds `nodes`, detached from where they were (one pass per parent, not per node). */
function wrap(nodes: AnyNode[]): Document {
  const kept = [...nodes];
  detachAll(kept);
  const body = new Element('body', {}, []);
  relink(body, kept);
  const doc = new Document([body]);
  body.parent = doc;
  return doc;
}
