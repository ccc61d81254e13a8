// The page's own footnotes where they read as chrome: docutils' `<aside class="footnote-list">` and ARIA's endnotes
// (`role="doc-endnotes"`) are asides, which main content drops, leaving the text's `[^1]` with no note. Kept when a
// reference in the page points into them.
import type { Element, ParentNode } from 'domhandler';

import { elements } from '../dom/walk.js';

const NOTE_ROLES: ReadonlySet<string> = new Set(['doc-endnotes', 'doc-footnote', 'doc-endnote']);
/** docutils' `footnote-list` and `footnote`, Python-Markdown's and others' `footnotes`. */
const NOTE_CLASS = /(?:^|\s)(?:footnote-list|footnotes|footnote)(?:\s|$)/;
/** docutils' reference (`<a class="footnote-reference brackets" href="#id3">`). */
const REF_CLASS = /(?:^|\s)footnote-ref(?:erence)?(?:\s|$)/;

/** The ids the page's footnote references point to, by the page's root. */
const refsByRoot = new WeakMap<ParentNode, Set<string>>();

/**
 * Whether `el` is a footnote list (by its ARIA role or class) that a footnote reference of the page points into:
 * then it is not chrome, whatever its tag.
 */
export function isFootnoteList(el: Element): boolean {
  const role = el.attribs['role'];
  const cls = el.attribs['class'];
  if (!(role !== undefined && NOTE_ROLES.has(role)) && !(cls !== undefined && NOTE_CLASS.test(cls))) return false;
  return holdsNoteTarget(el);
}

/**
 * Whether a footnote reference of the page points into `el` (to it or to an element inside it): the text's own notes,
 * wherever they sit and whatever their heading ("Footnotes" above PMC's `fn-group`).
 */
export function holdsNoteTarget(el: Element): boolean {
  const refs = noteRefs(el);
  if (refs.size === 0) return false;
  for (const e of [el, ...elements(el)]) {
    const id = e.attribs['id'];
    if (id !== undefined && refs.has(id)) return true;
  }
  return false;
}

/** The targets of the page's footnote references (`role="doc-noteref"`, `data-footnote-ref`, a link in `<sup>`). */
function noteRefs(el: Element): Set<string> {
  let root: ParentNode = el;
  while (root.parent) root = root.parent;
  let refs = refsByRoot.get(root);
  if (refs) return refs;
  refs = new Set();
  for (const a of elements(root)) {
    const href = a.name === 'a' ? a.attribs['href'] : undefined;
    if (href === undefined || href.length < 2 || !href.startsWith('#')) continue;
    if (
      a.attribs['role'] === 'doc-noteref' ||
      a.attribs['data-footnote-ref'] !== undefined ||
      REF_CLASS.test(a.attribs['class'] ?? '') ||
      (a.parent as Element | null)?.name === 'sup'
    ) {
      refs.add(href.slice(1));
    }
  }
  refsByRoot.set(root, refs);
  return refs;
}
