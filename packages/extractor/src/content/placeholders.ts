// Template placeholders left on a published page: "Lorem ipsum" filler and the components built around it.
import { isTag, type AnyNode, type Element } from 'domhandler';

import type { Measures } from './measure.js';
import type { TextBlock } from './repeat-runs.js';
import type { Doomed } from './trace.js';

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
 * Drops the text blocks of the container (as `dropRepeats` collects them) that are filler, each with the largest
 * wrapper around it that is mostly filler: unfilled template cards, banners and lists ("Heading Line", "Head Line 1",
 * "Lorem ipsum 1 / 2 / 3").
 */
export function dropPlaceholders(
  blocks: readonly TextBlock[],
  container: Element,
  measures: Measures,
  total: number,
  doomed: Doomed,
): void {
  const fillers = blocks.filter((b) => FILLER.test(b.text));
  if (fillers.length === 0) return;
  const filler = fillerBelow(fillers, container, measures);
  // the largest wrapper above each element (up to one of over 30% of the container) that is mostly filler, each
  // element answered once: thousands of fillers deep in one wrapper must not each climb all of its ancestors
  const largest = new Map<Element, Element | null>();
  const largestFrom = (start: Element): Element | null => {
    const path: Element[] = [];
    let found: Element | null = null;
    for (let p: AnyNode | null = start; ; p = p.parent) {
      if (!p || !isTag(p) || p === container) break;
      const known = largest.get(p);
      if (known !== undefined) {
        found = known;
        break;
      }
      if ((measures.get(p)?.text ?? 0) > MAX_COMPONENT_SHARE * total) {
        largest.set(p, null);
        break;
      }
      path.push(p);
    }
    for (let i = path.length - 1; i >= 0; i--) {
      const p = path[i]!;
      if (!found && (filler.get(p) ?? 0) >= COMPONENT_FILLER_SHARE * (measures.get(p)?.text ?? 0)) found = p;
      largest.set(p, found);
    }
    return path.length > 0 ? largest.get(path[0]!)! : found;
  };
  for (const { el } of fillers) {
    const parent = el.parent;
    doomed.drop((parent && isTag(parent) ? largestFrom(parent) : null) ?? el, 'placeholder');
  }
}

/**
 * Filler characters per element: the text of the filler blocks in it, summed up to the container (which is left
 * out). Each ancestor is climbed to once, and the sums go up a level at a time, deepest first.
 */
function fillerBelow(fillers: readonly TextBlock[], container: Element, measures: Measures): Map<Element, number> {
  const filler = new Map<Element, number>();
  // depth under the container (1 for its children) of every element holding a filler
  const depth = new Map<Element, number>();
  for (const { el } of fillers) {
    filler.set(el, (filler.get(el) ?? 0) + (measures.get(el)?.text ?? 0));
    const path: Element[] = [];
    let base = 0;
    for (let p: Element | null = el; p && p !== container; p = isTag(p.parent!) ? p.parent : null) {
      const known = depth.get(p);
      if (known !== undefined) {
        base = known;
        break;
      }
      path.push(p);
    }
    for (let i = path.length - 1; i >= 0; i--) depth.set(path[i]!, base + path.length - i);
  }
  const byDepth: Element[][] = [];
  for (const [el, d] of depth) (byDepth[d] ??= []).push(el);
  for (let d = byDepth.length - 1; d > 1; d--) {
    for (const el of byDepth[d] ?? []) {
      const parent = el.parent as Element;
      filler.set(parent, (filler.get(parent) ?? 0) + (filler.get(el) ?? 0));
    }
  }
  return filler;
}
