// The byline and dateline at the head of the chosen content, made one compact line after its title.
import { isTag, isText, type AnyNode, type Element, type ParentNode, type Text } from 'domhandler';

import { SubtreeMemo } from '../dom/subtree-memo.js';
import { contains, detachAll, elements, relink, textOf } from '../dom/walk.js';
import { lineOf } from './byline-line.js';
import { looksLikeAvatar, looksLikeByline, marksAuthorOrDate } from './hints.js';
import type { Measure, Measures } from './measure.js';
import { hasImage, HEADING_TAGS, INLINE_TAGS } from './tags.js';
import { ruleOff, type Trace } from './trace.js';

/** A byline part holds at most this many characters (a name, a date, "By Jane Doe | 9 March 2026, 14:05"). */
const MAX_PART = 120;

/** The whole line holds at most this many characters; more is a block of the text, not a byline. */
const MAX_LINE = 200;

/** Between and beside the parts, a piece of text holds at most this many characters ("By", "|", "Updated on"). */
const MAX_JOINER = 20;

/** The head ends at the first block holding this many characters of its own text: the body's first paragraph. */
const PARAGRAPH = 150;

/** ... or at the first `<p>` holding this many. */
const SHORT_PARAGRAPH = 80;

/** The head ends after this many characters of text (a title, a kicker, a standfirst and the byline itself). */
const MAX_HEAD = 500;

/** A dateline without markup holds at most this many characters. */
const MAX_DATELINE = 40;

/** A date: "March 3, 2025", "3rd Mar. 2025", "2025-03-03", "Tuesday February 11 2025". */
const DATE =
  '(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\\.?,? )?(?:\\d{1,2}(?:st|nd|rd|th)?\\.? (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?,? \\d{4}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.? \\d{1,2}(?:st|nd|rd|th)?,? \\d{4}|\\d{4}-\\d{2}-\\d{2})';

/**
 * The whole text of a dateline without markup: a date, maybe a label and a time ("Updated: March 3, 2025, 9:30 am").
 */
const DATELINE = new RegExp(
  `^(?:(?:published|posted|updated|last updated|modified)(?: on)?:? )?${DATE}(?:,? (?:at )?\\d{1,2}[:.]\\d{2}(?: ?[ap]\\.?m\\.?)?(?: [a-z]{2,4})?)?$`,
  'i',
);

/** What makes a run of marked blocks a byline or a dateline: a date, or a "by" ("By Jane Doe", "Reviewed by"). */
const BYLINE_TEXT = new RegExp(`\\bby\\b|${DATE}`, 'i');

/** Images at most this wide or high (by their attributes) are icons or avatars, dropped with the byline. */
const MAX_AVATAR_SIZE = 120;

/** Words of an avatar's or an author photo's class, file name or alt text. */
const AVATAR_IMAGE = /avatar|gravatar|author|profile|headshot|byline|user/i;

/** Lists whose items are the byline's parts (`<ul><li>Jane Doe</li><li>March 3</li></ul>`): the list is the run. */
const LIST_TAGS: ReadonlySet<string> = new Set(['ul', 'ol', 'dl', 'menu']);

/** Parts of a table are cells of data, never a byline to move. */
const TABLE_TAGS: ReadonlySet<string> = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr']);

/**
 * Makes the byline and dateline at the head of `container` (before the body's first paragraph) one compact line,
 * `By Jane Doe · March 3, 2025 · 5 min read`. Its parts are short blocks marked by tag, attribute or class (`<time>`,
 * `rel="author"`, `itemprop="author"`, `byline`, `post-meta`, ...: `looksLikeByline`) or holding only a date; they
 * must be adjacent (siblings, with at most short labels, separators and avatars between them), short together, and
 * hold a date, a "by" or a machine-readable author or date (`marksAuthorOrDate`), and not be one of several items of
 * the page (a thread's posts), nor sit in a link or a table.
 * `measures` are the container's from before it was cleaned: they count text that cleaning removed, so they are
 * upper bounds and the rule errs towards doing nothing (and costs no pass of its own over the container). The line
 * stays where the byline began, or goes right after the content's title (its first `<h1>`) when the byline stood above
 * it. Every word stays; pure separators, avatar images and copies of a piece (responsive variants) go. Nothing happens
 * when any of this does not hold.
 */
export function compactByline(container: Element, measures: Measures, trace?: Trace): void {
  const headed = new HeadingIndex();
  const { title, parts } = readHead(container, measures, headed);
  if (parts.length === 0 || ruleOff('byline')) return;
  const run = bylineRun(container, parts, measures, headed);
  if (!run) return;
  const compact = lineOf(run);
  if (!compact) return;
  const first = run[0]!;
  const parent = first.parent!;
  const at = parent.children.indexOf(first);
  // a byline above the title (a kicker's dateline, an author block before the headline) goes right after it
  const below = title !== null && precedes(first, title);
  // one line already, where it belongs
  if (compact.lines <= 1 && !below) return;
  const { line } = compact;
  for (const n of run) if (isTag(n)) trace?.mark(n, 'byline');
  detachAll(run);
  if (below) {
    let after: Element = title;
    while (isTag(after.parent!) && INLINE_TAGS.has(after.parent.name)) after = after.parent;
    insertAt(after.parent!, after.parent!.children.indexOf(after) + 1, line);
  } else insertAt(parent, at, line);
}

/** The head of `container` before its first paragraph: its title (the first `<h1>`) and the byline parts in it. */
function readHead(
  container: Element,
  measures: Measures,
  headed: HeadingIndex,
): { title: Element | null; parts: Element[] } {
  let title: Element | null = null;
  const parts: Element[] = [];
  let seen = 0;
  const stack: AnyNode[] = [...container.children].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    const m = measures.get(node);
    if (!m || m.text === 0) continue;
    if (m.text <= MAX_PART && (looksLikeByline(node) || isDateline(node, m)) && !headed.has(node)) {
      parts.push(node);
      seen += m.text;
      continue;
    }
    if (m.own >= PARAGRAPH || (node.name === 'p' && m.own >= SHORT_PARAGRAPH)) break;
    if (HEADING_TAGS.has(node.name)) {
      if (!title && node.name === 'h1') title = node;
      seen += m.text;
      continue;
    }
    if (!INLINE_TAGS.has(node.name)) seen += m.own;
    if (seen > MAX_HEAD) break;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return { title, parts };
}

/** A short block holding only inline text, all of it a date. */
function isDateline(el: Element, m: Measure): boolean {
  return !INLINE_TAGS.has(el.name) && m.own === m.text && m.text <= MAX_DATELINE && DATELINE.test(textOf(el));
}

/**
 * Which elements are or hold a heading, each element read once however many nested elements are asked about (a chain
 * of thousands of byline-classed wrappers must not take quadratic time).
 */
class HeadingIndex {
  readonly #memo = new SubtreeMemo<boolean>(
    (el, valueOf) => HEADING_TAGS.has(el.name) || el.children.some((c) => isTag(c) && valueOf(c)),
  );

  has(root: Element): boolean {
    return this.#memo.get(root);
  }
}

function textLength(node: AnyNode, measures: Measures): number {
  if (isTag(node)) return measures.get(node)?.text ?? 0;
  return isText(node) ? node.data.replace(/\s+/g, '').length : 0;
}

/**
 * The nodes that make up the byline: the parts, each taken up to its block while that block is short and holds no
 * heading, and the siblings between them under their lowest common ancestor, with the short inline labels beside
 * them ("By "). Null when the parts are not adjacent, the whole is not short, or it sits in a link or a table (a
 * teaser card's title and date, a row of data).
 */
function bylineRun(container: Element, parts: Element[], measures: Measures, headed: HeadingIndex): AnyNode[] | null {
  const units: Element[] = [];
  for (const part of parts) {
    let u = part;
    while (INLINE_TAGS.has(u.name) && u.parent !== container && isTag(u.parent!)) {
      const p: Element = u.parent;
      if ((measures.get(p)?.text ?? 0) > MAX_LINE || headed.has(p)) break;
      u = p;
    }
    const last = units.at(-1);
    if (last && (last === u || contains(last, u))) continue;
    units.push(u);
  }
  let top = commonAncestor(units[0]!, units.at(-1)!);
  let siblings = top.children;
  let i = siblings.indexOf(childHolding(top, units[0]!));
  let j = siblings.indexOf(childHolding(top, units.at(-1)!));
  if (isTag(top) && TABLE_TAGS.has(top.name)) return null;
  if (isTag(top) && LIST_TAGS.has(top.name)) {
    if (top === container) return null;
    // the items of a list: the whole list is the byline, if it is short
    const list: Element = top;
    top = list.parent!;
    siblings = top.children;
    i = j = siblings.indexOf(list);
  }
  // a block holding half the content is the page's item, whatever its siblings (related sections beside the story)
  const whole = measures.get(container)?.text ?? 0;
  for (let p: ParentNode | null = top; p && p !== container; p = p.parent) {
    if (!isTag(p)) continue;
    if (p.name === 'a') return null;
    if ((measures.get(p)?.text ?? 0) < ITEM_SHARE * whole && isRepeated(p, parts[0]!)) return null;
  }
  // short inline labels and separators beside the parts ("By ", "Posted on ")
  const inlineJoiner = (n: AnyNode | undefined): boolean =>
    n !== undefined &&
    (isText(n) || (isTag(n) && INLINE_TAGS.has(n.name) && !hasImage(n))) &&
    textLength(n, measures) <= MAX_JOINER;
  while (i > 0 && inlineJoiner(siblings[i - 1])) i--;
  while (j < siblings.length - 1 && inlineJoiner(siblings[j + 1])) j++;
  const run = trim(siblings.slice(i, j + 1));
  // the children of `top` that are or hold a unit, each ancestor read once (thousands of parts side by side must not
  // make every child of the run scan the units)
  const holding = new Set<AnyNode>();
  const climbed = new Set<AnyNode>();
  for (const u of units) {
    for (let n: AnyNode | null = u; n && !climbed.has(n); n = n.parent) {
      climbed.add(n);
      if (n.parent === top) {
        holding.add(n);
        break;
      }
    }
  }
  const holdsUnit = (n: AnyNode): boolean => holding.has(n);
  let size = 0;
  let signal = false;
  for (const n of run) {
    const length = textLength(n, measures);
    size += length;
    // too long already: no byline, whatever comes next
    if (size > MAX_LINE) return null;
    if (!isTag(n)) continue;
    if (headed.has(n) || !onlyAvatars(n)) return null;
    if (!holdsUnit(n) && length > MAX_JOINER) return null;
    signal ||= holdsDateOrAuthor(n);
  }
  if (size === 0 || size > MAX_LINE || !run.some((n) => isTag(n) && holdsUnit(n))) return null;
  return signal || BYLINE_TEXT.test(run.map((n) => (isTag(n) ? textOf(n) : isText(n) ? n.data : '')).join(' '))
    ? run
    : null;
}

/** A block holding this share of the content's text is its item, not one of several. */
const ITEM_SHARE = 0.5;

/** Items of a thread or a grid: `el` and at least this many siblings of its tag and class, each with the byline. */
const MIN_REPEATED = 3;

/**
 * Whether `el` is one of several items of one tag and class that each hold a byline like `part` (its tag and class):
 * the posts of a thread, teaser cards, whose bylines are the items', not the page's. Blocks of one class that do not
 * (`article__block`: the head, then the story in chunks) are not such items.
 */
function isRepeated(el: Element, part: Element): boolean {
  const cls = el.attribs['class'];
  if (!cls) return false;
  let items = 1;
  for (const s of el.parent?.children ?? []) {
    if (s === el || !isTag(s) || s.name !== el.name || s.attribs['class'] !== cls) continue;
    if (holdsLike(s, part) && ++items >= MIN_REPEATED) return true;
  }
  return false;
}

/** Whether an element of `part`'s tag and class is in `el`. */
function holdsLike(el: Element, part: Element): boolean {
  const cls = part.attribs['class'];
  for (const e of elements(el)) if (e.name === part.name && e.attribs['class'] === cls) return true;
  return false;
}

/** Whether `el` or an element in it is marked as an author's name or a date (`marksAuthorOrDate`). */
function holdsDateOrAuthor(el: Element): boolean {
  if (marksAuthorOrDate(el)) return true;
  for (const e of elements(el)) if (marksAuthorOrDate(e)) return true;
  return false;
}

/** The run without whitespace-only text at its ends. */
function trim(run: AnyNode[]): AnyNode[] {
  let i = 0;
  let j = run.length;
  while (i < j && isText(run[i]!) && !/\S/.test((run[i] as Text).data)) i++;
  while (j > i && isText(run[j - 1]!) && !/\S/.test((run[j - 1] as Text).data)) j--;
  return run.slice(i, j);
}

function commonAncestor(a: Element, b: Element): ParentNode {
  if (a === b) return a.parent!;
  const above = new Set<ParentNode>();
  for (let p = a.parent; p; p = p.parent) above.add(p);
  for (let p = b.parent; p; p = p.parent) if (above.has(p)) return p;
  return a.parent!;
}

/** The child of `top` that is `node` or holds it. */
function childHolding(top: ParentNode, node: AnyNode): AnyNode {
  let n = node;
  while (n.parent && n.parent !== top) n = n.parent;
  return n;
}

/** Whether `a` comes before `b` in document order (neither holding the other). */
function precedes(a: AnyNode, b: AnyNode): boolean {
  const path = (n: AnyNode): AnyNode[] => {
    const out: AnyNode[] = [];
    for (let p: AnyNode | null = n; p; p = p.parent) out.push(p);
    return out.reverse();
  };
  const pa = path(a);
  const pb = path(b);
  let k = 0;
  while (k < pa.length && k < pb.length && pa[k] === pb[k]) k++;
  if (k === 0 || k >= pa.length || k >= pb.length) return false;
  const siblings = (pa[k - 1] as ParentNode).children;
  return siblings.indexOf(pa[k]!) < siblings.indexOf(pb[k]!);
}

/** Whether every image under `el` is an avatar or an icon: the byline drops them, and nothing else. */
function onlyAvatars(el: Element): boolean {
  for (const e of [el, ...elements(el)]) if (e.name === 'img' && !isAvatarImage(e, el)) return false;
  return true;
}

function isAvatarImage(img: Element, top: Element): boolean {
  const a = img.attribs;
  const size = Math.max(Number.parseInt(a['width'] ?? '', 10) || 0, Number.parseInt(a['height'] ?? '', 10) || 0);
  if (size > 0 && size <= MAX_AVATAR_SIZE) return true;
  if (AVATAR_IMAGE.test(`${a['class'] ?? ''} ${a['src'] ?? ''} ${a['alt'] ?? ''}`)) return true;
  // an avatar's wrapper, up to the run's element
  let p: Element = img;
  while (!looksLikeAvatar(p)) {
    const parent = p.parent;
    if (p === top || !parent || !isTag(parent)) return false;
    p = parent;
  }
  return true;
}

function insertAt(parent: ParentNode, index: number, node: AnyNode): void {
  const children = [...parent.children];
  children.splice(index, 0, node);
  relink(parent, children);
}
