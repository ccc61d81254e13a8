// The first pass: a page's body without what is never readable text (comments, scripts, media, form controls, hidden
// elements), with what the parser left after `</body>` moved back in.
import { type Comment, type Document, isCDATA, isComment, isDirective, isTag, isText } from 'domhandler';
import type { AnyNode, Element, ParentNode } from 'domhandler';

import { isEmbed } from '../dom/embeds.js';
import { parseHtml } from '../dom/parse.js';
import { detachAll, relink } from '../dom/walk.js';
import { isHidden } from './hidden.js';
import { hiddenPageContent, trimmedLength } from './hidden-page.js';
import { keptForEmbeds, keptForImages, unreadInEmbed } from './kept-media.js';
import { isStateData } from './state-data.js';
import { DROP_TAGS, keptForMarkdown } from './tags.js';
import { ruleOff, type Trace } from './trace.js';

/** The page's `<body>` (the document itself when it has none). */
export function findBody(document: Document): ParentNode {
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
export function adoptStrayContent(document: Document, body: ParentNode): void {
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

/**
 * Removes comments, invisible elements and elements that never hold readable text. A hidden block that holds most of
 * the page's text stays (`hidden-page.ts`), unless `reveal` is false.
 */
export function prune(root: ParentNode, trace?: Trace, reveal = true, embeds = false): void {
  const doomed: AnyNode[] = [];
  const hidden: Element[] = [];
  // characters of text the page shows: what a hidden block is weighed against
  let visible = 0;
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
      if (isText(node) && isStateData(node) && !ruleOff('state-data')) {
        doomed.push(node);
        trace?.drop(node, 'state-data');
      } else if (isText(node)) visible += trimmedLength(node.data);
      continue;
    }
    const el = node;
    if (el.name === 'noscript') {
      // Some sites (forums especially) serve their whole readable content in <noscript>; keep that, drop pixels.
      if (textLength(el) >= 200) el.name = 'div';
      else {
        doomed.push(el);
        trace?.drop(el, 'not-text');
        continue;
      }
    }
    const rule =
      DROP_TAGS.has(el.name) && !keptForMarkdown(el) && !keptForImages(el) && !(embeds && keptForEmbeds(el))
        ? 'not-text'
        : isHidden(el) && !ruleOff('hidden')
          ? 'hidden'
          : null;
    if (rule === 'hidden') {
      hidden.push(el);
      continue;
    }
    if (rule) {
      doomed.push(el);
      trace?.drop(el, rule);
      continue;
    }
    // a video kept for its poster: its sources, tracks and fallback text are no content
    if (el.name === 'video' && !embeds) doomed.push(...el.children);
    else if (embeds && isEmbed(el.name, el.attribs)) doomed.push(...unreadInEmbed(el));
    else for (const c of el.children) stack.push(c);
  }
  const shown = reveal && hidden.length && !ruleOff('hidden-page') ? hiddenPageContent(hidden, visible) : null;
  for (const el of hidden) {
    if (el === shown) continue;
    doomed.push(el);
    trace?.drop(el, 'hidden');
  }
  if (shown) {
    trace?.reveal(shown);
    prune(shown, trace, false, embeds);
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
