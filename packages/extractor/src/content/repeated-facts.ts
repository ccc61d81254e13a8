// Facts repeated item by item: label–value pairs in definition lists whose label comes back in every post or card
// ("Posts: 4032" and "Joined Jan 1, 2020" beside each post of a thread, "Acceptance rate 96%" on each school's card),
// told apart from a page's own definitions (a glossary, an API's fields) by that repetition, their shortness and code.
import { isTag, type Element } from 'domhandler';

import { textOf } from '../dom/walk.js';
import type { Measures } from './measure.js';
import { hasCode } from './tags.js';
import type { Doomed } from './trace.js';

/** A label is repeated in at least this many lists (one a post or a card) before its pairs are item facts. */
const MIN_LISTS = 3;
/** A label has at most this many characters ("Likes received", "Member since"). */
const MAX_LABEL = 30;
/** A value has at most this many characters: a count, a date, a place. */
const MAX_VALUE = 50;

/** "Label: value" in one element (`<dd><strong>Posts:</strong> 4032</dd>`); a space after the colon (not a URL). */
const LABELLED = /^([^:]{1,30}):\s+(\S.*)$/s;

/** Pairs of one label: the elements each pair is made of, and the lists they sit in. */
interface LabelPairs {
  parts: Element[];
  lists: Set<Element>;
}

/**
 * Drops the label–value pairs of definition lists under `container` whose label repeats in 3 or more lists: a term
 * (up to 30 characters) with the definition after it (up to 50), or one term or definition reading "Label: value".
 * The rest of each list (the poster's name, a rank) stays: only the repeated, labelled figures go. A pair holding code
 * is documentation (an event's "signature:", a field list's "Return type:"), never an item's fact; so are lists nested
 * in a definition, which are not read (the field list inside a documented function's entry).
 */
export function dropRepeatedFacts(container: Element, measures: Measures, doomed: Doomed): void {
  const byLabel = new Map<string, LabelPairs>();
  const stack: Element[] = [container];
  while (stack.length) {
    const el = stack.pop()!;
    if (doomed.has(el) || !measures.get(el)?.text) continue;
    if (el.name === 'dl') {
      for (const [label, parts] of pairsOf(el)) {
        let pairs = byLabel.get(label);
        if (!pairs) byLabel.set(label, (pairs = { parts: [], lists: new Set() }));
        pairs.parts.push(...parts);
        pairs.lists.add(el);
      }
      continue;
    }
    for (const c of el.children) if (isTag(c)) stack.push(c);
  }
  for (const { parts, lists } of byLabel.values()) {
    if (lists.size >= MIN_LISTS) for (const p of parts) doomed.drop(p, 'repeated-facts');
  }
}

/** The labelled pairs of a definition list (its items, or items wrapped one level in `<div>`s), by label. */
function pairsOf(dl: Element): [string, Element[]][] {
  const items: Element[] = [];
  for (const c of dl.children) {
    if (!isTag(c)) continue;
    if (c.name === 'div') for (const d of c.children) if (isTag(d)) items.push(d);
    if (c.name === 'dt' || c.name === 'dd') items.push(c);
  }
  const out: [string, Element[]][] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (item.name !== 'dt' && item.name !== 'dd') continue;
    if (hasCode(item)) continue;
    const text = textOf(item).replace(/\s+/g, ' ').trim();
    const labelled = LABELLED.exec(text);
    if (labelled && labelled[2]!.length <= MAX_VALUE) {
      out.push([labelled[1]!.trim().toLowerCase(), [item]]);
      continue;
    }
    const next = items[i + 1];
    if (item.name === 'dt' && next?.name === 'dd' && text.length <= MAX_LABEL && !hasCode(next)) {
      const value = textOf(next).trim();
      if (value.length > 0 && value.length <= MAX_VALUE) {
        out.push([text.replace(/:$/, '').toLowerCase(), [item, next]]);
        i++;
      }
    }
  }
  return out;
}
