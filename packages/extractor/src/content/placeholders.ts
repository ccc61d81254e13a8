// Template placeholders left on a published page: "Lorem ipsum" filler and the components built around it.
import { isTag, type AnyNode, type Element } from 'domhandler';

import type { Measure } from './measure.js';
import type { TextBlock } from './repeat-runs.js';

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
 * Drops the text blocks of the container (as `dropRepeats` collects them) that are filler, each with the largest wrapper
 * around it that is mostly filler: unfilled template cards, banners and lists ("Heading Line", "Head Line 1", "Lorem
 * ipsum 1 / 2 / 3").
 */
export function dropPlaceholders(
  blocks: readonly TextBlock[],
  container: Element,
  measures: Map<Element, Measure>,
  total: number,
  doomed: Set<AnyNode>,
): void {
  const fillers = blocks.filter((b) => FILLER.test(b.text));
  if (fillers.length === 0) return;
  // filler characters per element, summed up to the container
  const filler = new Map<Element, number>();
  for (const { el } of fillers) {
    const text = measures.get(el)?.text ?? 0;
    for (let p: Element | null = el; p && p !== container; p = isTag(p.parent!) ? p.parent : null) {
      filler.set(p, (filler.get(p) ?? 0) + text);
    }
  }
  for (const { el } of fillers) {
    let top = el;
    for (let p = el.parent; p && isTag(p) && p !== container; p = p.parent) {
      const text = measures.get(p)?.text ?? 0;
      if (text > MAX_COMPONENT_SHARE * total) break;
      if ((filler.get(p) ?? 0) >= COMPONENT_FILLER_SHARE * text) top = p;
    }
    doomed.add(top);
  }
}
