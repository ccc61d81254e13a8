// Copies inside the container: blocks and wrappers that repeat an earlier one word for word, quotes of earlier posts.
import { isTag, type Element } from 'domhandler';

import { contains, elements, textOf } from '../dom/walk.js';
import type { Measure, Measures } from './measure.js';
import { doomCopies, type TextBlock } from './repeat-runs.js';
import { CODE_TAGS, HEADING_TAGS } from './tags.js';
import type { Doomed } from './trace.js';

/** Blocks whose exact repetition later in the container is a copy (mobile and desktop renderings, sticky bars). */
const REPEATABLE: ReadonlySet<string> = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const MIN_REPEAT = 25;
/** A quote of part of an earlier block goes when it holds this many characters. */
const MIN_QUOTED = 40;

/** Wrappers whose repetition is a copy only when they hold this many characters (a product block rendered twice). */
const MIN_REPEAT_GROUP = 80;

/** Items of lists and tables repeat legitimately (the same feature in every pricing tier): never compared whole. */
const NEVER_REPEAT: ReadonlySet<string> = new Set([
  'ul',
  'ol',
  'li',
  'dl',
  'dd',
  'dt',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'td',
  'th',
  'blockquote',
  'pre',
  'code',
]);

/**
 * Drops paragraphs and headings that repeat an earlier one word for word, and wrappers of several blocks that
 * repeat an earlier wrapper (lists, tables, quotes and code excepted). A paragraph inside a quote that repeats an
 * earlier one is a reply quoting an earlier post: it goes too. Answers the container's text blocks in order.
 */
export function dropRepeats(container: Element, measures: Measures, doomed: Doomed): TextBlock[] {
  const seen = new Set<string>();
  // the container's text blocks in order, judged as copies or item boilerplate once all are met
  const blocks: TextBlock[] = [];
  // wrappers are compared by their measure first, by their text only when the measures collide
  const groups = new Map<string, RepeatGroup>();
  // the text of every block seen outside quotes, to find quotes of part of an earlier post
  let earlier = '';
  // characters those searches may scan in all: far above any real page, it keeps a page of thousands of quotes linear
  let scanBudget = QUOTE_SCAN_BUDGET;
  // the walk's stack, and beside it whether each element is inside a quote (two arrays: no pair an element)
  const stack: Element[] = [container];
  const inQuotes: boolean[] = [false];
  while (stack.length) {
    const el = stack.pop()!;
    const inQuote = inQuotes.pop()!;
    if (doomed.has(el)) continue;
    const m = measures.get(el);
    // a div (or a quote) holding only inline text is a paragraph by another name
    const leaf = m !== undefined && m.text > 0 && m.own === m.text;
    const quoted = inQuote || el.name === 'blockquote';
    if (REPEATABLE.has(el.name) || (leaf && (el.name === 'div' || el.name === 'blockquote'))) {
      const text = textOf(el);
      if (text.length >= MIN_REPEAT) {
        // the outermost block speaks for its text: a paragraph inside an item is not a repeat of the item
        const search = quoted && text.length >= MIN_QUOTED && scanBudget > 0;
        if (search) scanBudget -= earlier.length;
        const repeat = seen.has(text);
        // a reply quoting an earlier post
        if (quoted && (repeat || (search && earlier.includes(text)))) doomed.drop(el, 'quoted-reply');
        else {
          // a repeated heading or link is a copy or a per-post label ("Re: <thread title>"), never an item's text
          const label = HEADING_TAGS.has(el.name) || (m !== undefined && m.link >= 0.5 * m.text);
          blocks.push({ el, text, repeat, judged: true, label });
          seen.add(text);
          if (!quoted) earlier += `${text}\n`;
        }
        continue;
      }
    } else if (el !== container && !NEVER_REPEAT.has(el.name)) {
      if (m && m.text >= MIN_REPEAT_GROUP && m.blocks >= 2 && isRepeatGroup(el, m, groups)) {
        doomed.drop(el, 'repeat');
        continue;
      }
    }
    if (leaf || CODE_TAGS.has(el.name)) {
      // short blocks (a title, a price, a list item) are not judged, but they end or extend a run of repeats; code is
      // one block whatever its lines (a highlighter's repeated lines are the code's)
      const text = textOf(el);
      blocks.push({ el, text, repeat: seen.has(text), judged: false, label: false });
      seen.add(text);
      continue;
    }
    const c = el.children;
    for (let i = c.length - 1; i >= 0; i--) {
      const n = c[i]!;
      if (isTag(n)) {
        stack.push(n);
        inQuotes.push(quoted);
      }
    }
  }
  doomCopies(blocks, doomed);
  return blocks;
}

/** Characters that searching quotes in earlier text may scan on one page (see `dropRepeats`). */
const QUOTE_SCAN_BUDGET = 64 * 1024 * 1024;

/** Wrappers of one measure: those not read yet, the others by their text (each read once). */
interface RepeatGroup {
  unread: Element[];
  byText: Map<string, Element[]>;
  /** The last wrapper of the group found to hold no `<pre>` (its descendants hold none either). */
  withoutCode: Element | null;
}

/** Whether `el` repeats the text of an earlier wrapper that is not its ancestor; registers it otherwise. */
function isRepeatGroup(el: Element, m: Measure, groups: Map<string, RepeatGroup>): boolean {
  const key = `${m.text}:${m.link}:${m.blocks}`;
  const group = groups.get(key);
  if (!group) {
    groups.set(key, { unread: [el], byText: new Map(), withoutCode: null });
    return false;
  }
  // code samples repeat legitimately in documentation (the same response shown for two calls)
  const { withoutCode } = group;
  if (!(withoutCode && contains(withoutCode, el)) && hasTag(el, 'pre')) return false;
  group.withoutCode = el;
  // a chain of wrappers around the same blocks has one measure at every level, and an ancestor is never a copy:
  // while the group holds only ancestors of `el`, nothing is read (each level's text would be the whole chain's).
  // Until something is read, each wrapper left unread is an ancestor of the next: the last one is enough to ask
  if (group.byText.size === 0 && contains(group.unread[group.unread.length - 1]!, el)) {
    group.unread.push(el);
    return false;
  }
  for (const e of group.unread) addTo(group.byText, textOf(e), e);
  group.unread.length = 0;
  const text = textOf(el);
  for (const e of group.byText.get(text) ?? []) if (!contains(e, el)) return true;
  addTo(group.byText, text, el);
  return false;
}

function addTo(map: Map<string, Element[]>, key: string, el: Element): void {
  const list = map.get(key);
  if (list) list.push(el);
  else map.set(key, [el]);
}

function hasTag(root: Element, name: string): boolean {
  for (const el of elements(root)) if (el.name === name) return true;
  return false;
}
