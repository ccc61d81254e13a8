// Template placeholders left on a published page: "Lorem ipsum" filler and the components built around it.
import { isTag, isText, type AnyNode, type Element } from 'domhandler';

import { elements } from '../dom/walk.js';
import type { Measure } from './measure.js';

/**
 * Filler text of page templates, no page means it: "Lorem ipsum dolor sit amet", "LOREM ISPUM DOLOR ET", "Lorem
 * ipsum 2", a bare "Lorem Ipsum" (a sentence about lorem ipsum is not filler).
 */
const FILLER = /^\W*lorem\s+i(?:psu|spu)m(?:\s+(?:dolor|\d+)\b|\W*$)/i;

/** A placeholder component holds at least this share of filler ("Heading Line" above a lorem ipsum teaser). */
const COMPONENT_FILLER_SHARE = 0.5;
/** ...and at most this share of the container, so a page made of templates keeps its real text around them. */
const MAX_COMPONENT_SHARE = 0.3;

/**
 * Drops blocks of filler text and the smallest-to-largest wrappers around them that are mostly filler: unfilled
 * template cards, banners and lists ("Heading Line", "Head Line 1", "Lorem ipsum 1 / 2 / 3").
 */
export function dropPlaceholders(
  container: Element,
  measures: Map<Element, Measure>,
  total: number,
  doomed: Set<AnyNode>,
): void {
  // filler characters per element, summed up to the container
  const filler = new Map<Element, number>();
  const blocks: Element[] = [];
  for (const el of elements(container)) {
    const m = measures.get(el);
    if (!m || m.text === 0 || m.own !== m.text || !FILLER.test(leadingText(el))) continue;
    blocks.push(el);
    for (let p: Element | null = el; p && p !== container; p = isTag(p.parent!) ? p.parent : null) {
      filler.set(p, (filler.get(p) ?? 0) + m.text);
    }
  }
  for (const block of blocks) {
    let top = block;
    for (let p = block.parent; p && isTag(p) && p !== container; p = p.parent) {
      const text = measures.get(p)?.text ?? 0;
      if (text > MAX_COMPONENT_SHARE * total) break;
      if ((filler.get(p) ?? 0) >= COMPONENT_FILLER_SHARE * text) top = p;
    }
    doomed.add(top);
  }
}

/** The first characters of an element's text (enough to recognise filler). */
function leadingText(el: Element): string {
  let out = '';
  const stack: AnyNode[] = [el];
  while (stack.length && out.length < 40) {
    const n = stack.pop()!;
    if (isText(n)) out += n.data;
    else if (isTag(n)) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out;
}
