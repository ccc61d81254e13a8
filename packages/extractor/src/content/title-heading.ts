// A job posting's title heading that the container walk left beside the block it chose: a rendered posting's
// `#root > h2` beside `#root > div`. Only on a page declaring a `JobPosting`: a story's or a thread's title beside its
// body stays out (the references leave it out; `metadata.title` has it; decisions.md).
import { isTag, type AnyNode, type Document, type Element } from 'domhandler';

import { textOf } from '../dom/walk.js';
import type { Measures } from './measure.js';

const HEADINGS: ReadonlySet<string> = new Set(['h1', 'h2', 'h3']);
/** Characters a heading needs to be told apart from a word the title happens to hold ("Jobs", "Home"). */
const MIN_HEADING = 8;
/** Share of a wrapper's text its heading must hold to stand for it (a header: the title, a button beside it). */
const HEADING_SHARE = 0.6;

const norm = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** The document's `<title>`, as `norm` writes it; '' when it has none. */
export function documentTitle(document: Document): string {
  const stack: AnyNode[] = [...document.children];
  while (stack.length) {
    const node = stack.shift()!;
    if (!isTag(node) || node.name === 'body') continue;
    if (node.name === 'title') return norm(textOf(node));
    stack.unshift(...node.children);
  }
  return '';
}

/** `el` itself when it is a heading, else the heading holding nearly all its text (a header wrapping its `<h1>`). */
function headingOf(el: Element, measures: Measures): Element | null {
  if (HEADINGS.has(el.name)) return el;
  const total = measures.get(el)?.text ?? 0;
  const stack: Element[] = [el];
  while (stack.length) {
    const e = stack.pop()!;
    if (HEADINGS.has(e.name)) return (measures.get(e)?.text ?? 0) >= HEADING_SHARE * total ? e : null;
    for (const c of e.children) if (isTag(c)) stack.push(c);
  }
  return null;
}

/**
 * The heading just before `container` (the first block with text among its ancestors' earlier siblings below
 * `<body>`: a heading, or a wrapper that is nearly all heading) whose text the page's `<title>` holds; null otherwise:
 * a block of text between, a heading that is mostly a link, a title that does not name it.
 */
export function findTitleHeading(container: Element, title: string, measures: Measures): Element | null {
  if (!title) return null;
  for (let node: Element = container; isTag(node.parent!) && node.parent.name !== 'body'; node = node.parent) {
    for (let prev = node.prev; prev; prev = prev.prev) {
      if (!isTag(prev) || !(measures.get(prev)?.text ?? 0)) continue;
      const heading = headingOf(prev, measures);
      const m = heading && measures.get(heading);
      if (!heading || !m || m.link >= 0.5 * m.text) return null;
      const text = norm(textOf(heading));
      return text.length >= MIN_HEADING && title.includes(text) ? heading : null;
    }
  }
  return null;
}
