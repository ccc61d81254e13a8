// Sections of furniture inside the container: a heading ("Related articles", "Leave a comment", "References") and
// what follows it up to the next heading of its rank.
import { isTag, type AnyNode, type Element, type ParentNode } from 'domhandler';

import { elements, textOf } from '../dom/walk.js';
import { AD_HEADING } from './ad-labels.js';
import { BOLD_LABEL_LEVEL, boldLabelText } from './bold-labels.js';
import { holdsNoteTarget } from './footnote-lists.js';
import type { Measure, Measures } from './measure.js';
import { isPaywallHeading } from './paywall.js';
import {
  AMBIGUOUS_HEADING,
  COMMENTS_HEADING,
  FURNITURE_HEADING,
  FURNITURE_HEADING_PHRASE,
  NOTES_HEADING,
  POINTER_HEADING,
  SEE_ALSO,
} from './phrases/headings.js';
import { RELATED_LINK_LABEL } from './phrases/prompts.js';
import { HEADING_TAGS } from './tags.js';
import { ruleOff, type Doomed, type Trace } from './trace.js';

function isFurnitureHeading(text: string): boolean {
  return (
    FURNITURE_HEADING.test(text) ||
    FURNITURE_HEADING_PHRASE.test(text) ||
    isPaywallHeading(text) ||
    AD_HEADING.test(text)
  );
}

/** Whether a list's short lead-in names furniture ("Related posts:", "See also:"), not the text's own list. */
export function isListLabel(text: string): boolean {
  return isFurnitureHeading(text) || SEE_ALSO.test(text) || RELATED_LINK_LABEL.test(`${text}:`);
}

/** Class words of a block that titles a section without a heading tag (`<div class="mainColumnLabel">`). */
const LABEL_CLASS = /(?:title|heading|label|header)(?:$|[\s_-])/i;
const LABEL_TAGS: ReadonlySet<string> = new Set(['div', 'span', 'p', 'strong', 'b']);

/** A label titling a section (a text-only block whose class says so) counts as a second-rank heading. */
function labelLevel(el: Element, m: Measure): number {
  if (!LABEL_TAGS.has(el.name) || m.own !== m.text || m.link >= 0.5 * m.text) return 0;
  return LABEL_CLASS.test(el.attribs['class'] ?? '') ? 2 : 0;
}

export function headingLevel(el: Element): number {
  return HEADING_TAGS.has(el.name) ? Number(el.name[1]) : 0;
}

/** On an article, a section under a furniture heading goes when it holds less than this share of the container. */
const ARTICLE_SECTION_SHARE = 0.6;

/** What the heading step of the cleaning needs to know about the container. */
export interface SectionContext {
  measures: Measures;
  container: Element;
  /** The container's text, in characters. */
  total: number;
  /** Whether the page declares itself an article. */
  article: boolean;
  doomed: Doomed;
  trace?: Trace | undefined;
}

/**
 * The heading step of the cleaning: when `el` is a heading (a heading tag, a label, or on an article a bold
 * paragraph) that opens a section of furniture, dooms it with its section and answers true; answers false for any
 * other block (which the cleaning then enters).
 */
export function dropFurnitureSection(el: Element, m: Measure, ctx: SectionContext): boolean {
  const { measures, container, total, article, doomed, trace } = ctx;
  const level = headingLevel(el) || labelLevel(el, m);
  // on an article, a bold paragraph titling a furniture section ("You might also like:") is a heading of the
  // lowest rank
  const bold = level === 0 && article ? boldLabelText(el, m) : null;
  if (bold !== null && isFurnitureHeading(bold)) {
    const fate = dropSection(el, BOLD_LABEL_LEVEL, measures, ARTICLE_SECTION_SHARE * total, container, doomed, trace);
    if (fate !== 'large' && fate !== 'notes') doomed.drop(el, 'furniture-heading');
    return true;
  }
  if (level === 0 || m.text >= 60) return false;
  const heading = textOf(el);
  // on an article, its readers' comments go whatever their length
  const comments = article && COMMENTS_HEADING.test(heading);
  if (!comments && !isFurnitureHeading(heading)) return false;
  // on an article, a section of teaser links after a furniture heading goes whatever its share (a short story)
  const limit = comments ? Infinity : article ? ARTICLE_SECTION_SHARE * total : 0.3 * total;
  const ambiguous = !comments && AMBIGUOUS_HEADING.test(heading);
  const pointer = !comments && !ambiguous && POINTER_HEADING.test(heading);
  const fate = dropSection(el, level, measures, limit, container, doomed, trace, ambiguous, pointer);
  // an ambiguous heading whose section is not teasers titles the text and stays with it, as a heading does whose
  // section is too large to be furniture (an article's reference list): the list is not left without its title
  if (fate === 'dropped' || (fate === 'kept' && !ambiguous)) doomed.drop(el, 'furniture-heading');
  return true;
}

/**
 * What became of a furniture heading's section: `dropped` with it, `kept` as the text's own (the guard of wrapped,
 * label and ambiguous headings), `large`: kept, too large a share of the container to be furniture, or `notes`:
 * kept with its heading, the text's footnote references pointing into it.
 */
type SectionFate = 'dropped' | 'kept' | 'large' | 'notes';

/**
 * After a furniture heading: drop the rest of its section, i.e. the following siblings up to the next heading of
 * the same or a higher level, when they hold fewer than `limit` characters, and answer what became of it
 * (`SectionFate`). After a `pointer`
 * heading (one announcing links) the section ends where prose without links starts, when what follows from there is
 * text rather than more teasers.
 */
function dropSection(
  heading: Element,
  level: number,
  measures: Measures,
  limit: number,
  container: Element,
  doomed: Doomed,
  trace?: Trace,
  ambiguous = false,
  pointer = false,
): SectionFate {
  // page builders wrap each heading alone (`<div class="widget"><div><h2>`): the section is what follows the wrapper
  const own = measures.get(heading)?.text ?? 0;
  let start: Element = heading;
  while (isTag(start.parent!) && start.parent !== container && measures.get(start.parent)?.text === own) {
    start = start.parent;
  }
  const parent: ParentNode | null = start.parent;
  if (!parent) return 'dropped';
  // a wrapped heading, a label or an ambiguous heading is less sure than a heading tag in the flow of the text: its
  // section must be furniture-like too (linked titles, not a story's intro or a live blog's updates)
  const label = headingLevel(heading) === 0;
  const guarded = start !== heading || label || ambiguous;
  // the text's own notes, which its footnote references point into, stay under their heading
  const noted = (section: readonly AnyNode[]) =>
    NOTES_HEADING.test(textOf(heading).trim()) && section.some((n) => isTag(n) && holdsNoteTarget(n));
  const pm = isTag(parent) ? measures.get(parent) : undefined;
  // the heading opens its own wrapper: drop the wrapper when it is small
  if (pm && isTag(parent) && parent !== container && pm.text < limit && firstTag(parent) === start) {
    if (noted([parent])) return notes([parent], trace);
    if (!label || pm.link >= WRAPPED_SECTION_LINKS * (pm.text - (measures.get(start)?.text ?? 0)))
      doomed.drop(parent, 'furniture-section');
    return 'dropped';
  }
  let size = 0;
  let links = 0;
  const run: AnyNode[] = [];
  // where a pointer heading's links end in prose, and the text and links from there on
  let stop = -1;
  let tailSize = 0;
  let tailLinks = 0;
  let tailProse = 0;
  for (let n = start.next; n; n = n.next) {
    if (isTag(n)) {
      const e = n;
      const l = leadingHeadingLevel(e, measures);
      if (l > 0 && l <= level) break;
      // past a wrapped heading, a sibling holding a heading of its rank is the next section, not furniture
      if (guarded && holdsHeading(e, level)) break;
      // after a heading announcing links, a paragraph of prose without links may be the text going on
      if (pointer && stop < 0 && isLinklessProse(e, measures)) stop = run.length;
      if (stop >= 0) {
        tailSize += measures.get(e)?.text ?? 0;
        tailLinks += measures.get(e)?.link ?? 0;
        tailProse += measures.get(e)?.prose ?? 0;
      }
      size += measures.get(e)?.text ?? 0;
      links += measures.get(e)?.link ?? 0;
    }
    run.push(n);
  }
  if (noted(run)) return notes(run, trace);
  // not teasers: the section stays (and an ambiguous heading with it)
  if (guarded && links < WRAPPED_SECTION_LINKS * size) {
    if (start !== heading) doomed.drop(start, 'furniture-heading');
    return 'kept';
  }
  // the links end where the text goes on (prose that is not itself teasers): only the links go
  if (stop >= 0 && (tailLinks < POINTER_TAIL_LINKS * tailSize || tailProse >= POINTER_TAIL_PROSE)) {
    size -= tailSize;
    run.length = stop;
  }
  if (size < limit || ruleOff('large-section')) {
    if (start !== heading) doomed.drop(start, 'furniture-heading');
    for (const n of run) doomed.drop(n, 'furniture-section');
    return 'dropped';
  }
  for (const n of run) if (isTag(n)) trace?.mark(n, 'large-section');
  return 'large';
}

/** A block of prose (sentence punctuation or a long run of text) with under 10% links: not a pointer's links. */
/** A section kept for the footnotes the text points into: its blocks marked so for `explain`. */
function notes(section: readonly AnyNode[], trace: Trace | undefined): 'notes' {
  for (const n of section) if (isTag(n)) trace?.mark(n, 'footnote-section');
  return 'notes';
}

function isLinklessProse(el: Element, measures: Measures): boolean {
  const m = measures.get(el);
  return m !== undefined && m.text >= POINTER_PROSE_MIN && m.prose > 0 && m.link < 0.1 * m.text;
}

/** The text after a pointer heading's links is the text going on when under this share of it is links. */
const POINTER_TAIL_LINKS = 0.2;

/** ...or when it holds this much prose (an article's worth: a box of teasers holds less). */
const POINTER_TAIL_PROSE = 1000;

/** A paragraph ending a pointer heading's section holds at least this many characters. */
const POINTER_PROSE_MIN = 40;

/** After a heading wrapped alone, the section goes only when this share of its text is links. */
const WRAPPED_SECTION_LINKS = 0.1;

/** Whether `el` holds a heading of `level` or higher. */
function holdsHeading(el: Element, level: number): boolean {
  for (const e of elements(el)) {
    const l = headingLevel(e);
    if (l > 0 && l <= level) return true;
  }
  return false;
}

/** The level of `el` when it is a heading, or a wrapper whose text is one heading's (a page builder's widget). */
function leadingHeadingLevel(el: Element, measures: Measures): number {
  const text = measures.get(el)?.text ?? 0;
  let e: Element | null = el;
  while (e) {
    const level = headingLevel(e);
    if (level > 0) return level;
    let next: Element | null = null;
    for (const c of e.children) {
      if (isTag(c) && measures.get(c)?.text === text) {
        next = c;
        break;
      }
    }
    e = text > 0 ? next : null;
  }
  return 0;
}

function firstTag(parent: ParentNode): Element | null {
  for (const c of parent.children) if (isTag(c)) return c;
  return null;
}
