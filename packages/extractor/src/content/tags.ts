// Tag classes used by main-content extraction.
import { isTag, type Element, type ParentNode } from 'domhandler';

import { elements } from '../dom/walk.js';

/** Elements whose content is never visible text of the page. */
export const DROP_TAGS: ReadonlySet<string> = new Set([
  'head',
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'canvas',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'link',
  'meta',
  'base',
  'select',
  'option',
  'optgroup',
  'datalist',
  'textarea',
  'input',
  'dialog',
  'map',
  'area',
  'audio',
  'video',
  'source',
  'track',
]);

/**
 * Elements of `DROP_TAGS` that the pruned page keeps all the same, because its markdown reads them: MathML (written as
 * LaTeX: a KaTeX page's formulas are nowhere else as text) and a task list's checkbox (`- [x]`: its state is the
 * item's meaning).
 */
export function keptForMarkdown(el: Element): boolean {
  if (el.name === 'math') return true;
  if (el.name !== 'input' || el.attribs['type']?.toLowerCase() !== 'checkbox') return false;
  // the item itself, or a label inside it (MkDocs Material's `task-list-control`)
  const parent = el.parent;
  if (!parent || !isTag(parent)) return false;
  return parent.name === 'li' || (parent.name === 'label' && parent.parent !== null && isItem(parent.parent));
}

function isItem(node: ParentNode): boolean {
  return isTag(node) && node.name === 'li';
}

/** Phrasing elements: their text belongs to the enclosing block. */
export const INLINE_TAGS: ReadonlySet<string> = new Set([
  'a',
  'abbr',
  'acronym',
  'b',
  'bdi',
  'bdo',
  'big',
  'br',
  'button',
  'cite',
  'code',
  'data',
  'del',
  'dfn',
  'em',
  'font',
  'i',
  'img',
  'ins',
  'kbd',
  'label',
  'mark',
  'nobr',
  'picture',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strike',
  'strong',
  'sub',
  'sup',
  'time',
  'tt',
  'u',
  'var',
  'wbr',
]);

export const HEADING_TAGS: ReadonlySet<string> = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Elements that show a picture. */
export const PICTURE_TAGS: ReadonlySet<string> = new Set(['img', 'picture']);

/** Code: its elements are a highlighter's tokens and lines, never chrome, furniture or copies; no rule enters it. */
export const CODE_TAGS: ReadonlySet<string> = new Set(['pre', 'code']);

/** The shape of a card among its siblings: its tag and class (cards of one grid or row share it). */
export function shapeOf(el: Element): string {
  return `${el.name} ${el.attribs['class'] ?? ''}`;
}

/** Whether a link (`<a>`) goes to another page: an href that is not empty, a fragment or a script. */
export function linksAway(a: Element): boolean {
  const href = a.attribs['href']?.trim() ?? '';
  return href !== '' && !href.startsWith('#') && !/^javascript:/i.test(href);
}

/** Whether `el` is or holds a picture. */
export function hasImage(el: Element): boolean {
  if (PICTURE_TAGS.has(el.name)) return true;
  for (const e of elements(el)) if (PICTURE_TAGS.has(e.name)) return true;
  return false;
}

/** Whether `el` is or holds code (`<pre>`, `<code>`). */
export function hasCode(el: Element): boolean {
  if (CODE_TAGS.has(el.name)) return true;
  for (const e of elements(el)) if (CODE_TAGS.has(e.name)) return true;
  return false;
}
