// The blocks of a page: elements holding text of their own (a paragraph, a heading, a list item, a cell), the unit
// `explainPage` gives a verdict to.
import { isTag, isText, type AnyNode, type Element, type ParentNode } from 'domhandler';

import { DROP_TAGS, INLINE_TAGS } from '../content/tags.js';

/**
 * Of the elements the extractor drops as never readable text (`DROP_TAGS`), those whose text a reader may still miss
 * (a `<noscript>` that serves a forum's whole thread, a dialog's text): listed as blocks all the same.
 */
const LISTED: ReadonlySet<string> = new Set(['noscript', 'dialog']);

/** A block of a page. */
export interface PageBlock {
  el: Element;
  /** Its own text (not that of blocks inside it), whitespace collapsed. */
  text: string;
  /** The inline elements whose text is part of its own (a link, a button, a label), in document order. */
  inline: Element[];
}

/**
 * The blocks under `root` in document order: every element that is not inline (`INLINE_TAGS`) and holds text of its
 * own, directly or through inline elements.
 */
export function pageBlocks(root: ParentNode): PageBlock[] {
  const owners: Element[] = [];
  const texts = new Map<Element, string[]>();
  const inline = new Map<Element, Element[]>();
  // each node with the block its text belongs to
  const stack: [AnyNode, Element | null][] = [...root.children].reverse().map((c) => [c, null]);
  while (stack.length) {
    const [node, owner] = stack.pop()!;
    if (isText(node)) {
      if (owner && /\S/.test(node.data)) {
        let parts = texts.get(owner);
        if (!parts) {
          texts.set(owner, (parts = []));
          owners.push(owner);
        }
        parts.push(node.data);
      } else if (owner) texts.get(owner)?.push(node.data);
      continue;
    }
    if (!isTag(node) || (DROP_TAGS.has(node.name) && !LISTED.has(node.name))) continue;
    // a line break separates words
    if (node.name === 'br' && owner) texts.get(owner)?.push(' ');
    const own = INLINE_TAGS.has(node.name) && owner ? owner : node;
    if (own === owner && owner) {
      const list = inline.get(owner);
      if (list) list.push(node);
      else inline.set(owner, [node]);
    }
    for (let i = node.children.length - 1; i >= 0; i--) stack.push([node.children[i]!, own]);
  }
  const order = new Map<Element, number>();
  let i = 0;
  const walk: AnyNode[] = [...root.children].reverse();
  while (walk.length) {
    const node = walk.pop()!;
    if (!isTag(node)) continue;
    if (texts.has(node)) order.set(node, i++);
    for (let k = node.children.length - 1; k >= 0; k--) walk.push(node.children[k]!);
  }
  return owners
    .sort((a, b) => order.get(a)! - order.get(b)!)
    .map((el) => ({ el, text: texts.get(el)!.join('').replace(/\s+/g, ' ').trim(), inline: inline.get(el) ?? [] }));
}
