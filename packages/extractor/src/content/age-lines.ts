// A card's or a post's age standing alone as a line ("3 days ago", "5 hours ago"): a teaser grid's or a thread's
// metadata beside each item, which the references of listings and threads leave out. A story's own dateline is a date,
// not an age, and stays; an age inside a sentence ("posted 3 days ago by …") is the sentence's and stays.
import { isTag, type Element } from 'domhandler';

import type { Measures } from './measure.js';
import { ShortTexts } from './short-texts.js';
import { INLINE_TAGS } from './tags.js';
import type { Doomed } from './trace.js';

/** The whole text of an age line: a count and a unit of time, then "ago". */
const AGE = /^\d{1,3} (?:seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?) ago$/i;

/** An age line holds at most this many characters ("12 months ago" is 13). */
const MAX_AGE = 20;

/**
 * The ages go only while they are a small part of what the cleaning leaves: where they are most of it, the items
 * beside them went with other rules and the ages are what the page shows of its list.
 */
const MAX_AGE_SHARE = 0.2;

/** Characters of `container` left once its doomed blocks are gone (an iterative walk: pages nest deep). */
function remainingText(container: Element, measures: Measures, doomed: Doomed): number {
  let text = measures.get(container)?.text ?? 0;
  const stack: Element[] = [];
  for (const c of container.children) if (isTag(c)) stack.push(c);
  while (stack.length) {
    const el = stack.pop()!;
    const m = measures.get(el);
    if (!m || m.text === 0) continue;
    if (doomed.has(el)) text -= m.text;
    else for (const c of el.children) if (isTag(c)) stack.push(c);
  }
  return text;
}

/** A metadata row holds at most this many characters ("submitted 3 days ago by a_user_name · 12 comments"). */
const MAX_META_ROW = 100;

/**
 * Whether `el` is not a part of a sentence: a block, or an inline element in a short row without sentence punctuation
 * (a post's header: a name, its age, a number). "We shipped it <time>3 days ago</time>, and …" keeps its age.
 */
function outsideSentence(el: Element, measures: Measures): boolean {
  if (!INLINE_TAGS.has(el.name)) return true;
  const parent = el.parent;
  const pm = parent && isTag(parent) ? measures.get(parent) : undefined;
  return !!pm && pm.text <= MAX_META_ROW && pm.ownPunct === 0;
}

/**
 * Drops the blocks of `container` whose whole text is an age ("3 days ago"), the outermost such block each, when
 * together they hold under 20% of the text the cleaning leaves in the container.
 */
export function dropAgeLines(container: Element, measures: Measures, doomed: Doomed): void {
  const texts = new ShortTexts(measures, MAX_AGE);
  const ages: Element[] = [];
  let ageText = 0;
  const stack: Element[] = [];
  for (const c of container.children) if (isTag(c)) stack.push(c);
  while (stack.length) {
    const el = stack.pop()!;
    const m = measures.get(el);
    if (!m || m.text === 0 || doomed.has(el)) continue;
    if (m.text <= MAX_AGE && outsideSentence(el, measures) && AGE.test(texts.get(el))) {
      ages.push(el);
      ageText += m.text;
      continue;
    }
    for (const c of el.children) if (isTag(c)) stack.push(c);
  }
  if (ages.length === 0 || ageText >= MAX_AGE_SHARE * remainingText(container, measures, doomed)) return;
  for (const el of ages) doomed.drop(el, 'age-line');
}
