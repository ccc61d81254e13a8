// Numbered notes after the story: paragraphs of small print that open with a superscript number (`<sup>1</sup>Average
// expense ratio ...`), the notes of a page's figures. Read from structure alone (the leading `<sup>`, the position at
// the story's end), never from class names or a "Notes" heading.
import { isTag, isText, type Element } from 'domhandler';

import { elements, textOf } from '../dom/walk.js';
import { walkInOrder, type Measures } from './measure.js';
import { CODE_TAGS } from './tags.js';
import type { Doomed } from './trace.js';

/** The marker a note opens with: a number ("1", "12"). A lone asterisk is often the story's own aside. */
const NUMBER = /^\d{1,3}$/;
/** Blocks that can be a note: paragraphs, not list items (a list of cited sources is the page's own). */
const NOTE_BLOCKS: ReadonlySet<string> = new Set(['p', 'div']);
/** Inline wrappers the marker may sit in (`<p><span><sup>1</sup>`). */
const WRAPPERS: ReadonlySet<string> = new Set(['a', 'span', 'strong', 'b', 'small', 'em', 'i']);
/** A note holds more than its marker: a sentence. */
const MIN_NOTE = 20;

/** Notes start after this share of the container's text: at the story's end, not beside its paragraphs. */
const MIN_POSITION = 0.5;
/** All the notes together are under this share of the container's text: a page made of notes keeps them. */
const MAX_SHARE = 0.4;

/**
 * Drops the numbered notes at the end of `container`: paragraphs whose text opens with a superscript number, that
 * start after half the container's text, when together they are under 40% of it. Notes that a mark in the text links
 * to (`<sup><a href="#fn1">1</a></sup>` before a note with `id="fn1"`: a blog's footnotes, a paper's references) are
 * not these: the references keep them as often as not, so a note holding a link's target stays.
 */
export function dropNumberedNotes(container: Element, measures: Measures, doomed: Doomed): void {
  const total = measures.get(container)?.text ?? 0;
  if (total === 0) return;
  const notes: Element[] = [];
  let text = 0;
  let targets: Set<string> | undefined;
  walkInOrder(container, measures, (el, m, before) => {
    if (CODE_TAGS.has(el.name) || doomed.has(el)) return true;
    if (el === container || !NOTE_BLOCKS.has(el.name) || before < MIN_POSITION * total || !opensWithNumber(el)) {
      return false;
    }
    if (isLinkTarget(el, (targets ??= linkTargets(container)))) return true;
    notes.push(el);
    text += m.text;
    return true;
  });
  if (notes.length === 0 || text >= MAX_SHARE * total) return;
  for (const n of notes) doomed.drop(n, 'numbered-note');
}

/** Whether the block's text opens with a superscript number (`<sup>1</sup>`, `<span><sup>2</sup>`). */
function opensWithNumber(block: Element): boolean {
  let node: Element = block;
  for (;;) {
    const first = node.children.find((c) => !(isText(c) && c.data.trim() === ''));
    if (!first || !isTag(first)) return false;
    if (first.name === 'sup') return NUMBER.test(textOf(first).trim()) && textOf(block).trim().length > MIN_NOTE;
    if (!WRAPPERS.has(first.name)) return false;
    node = first;
  }
}

/** The ids that links inside `root` point to (`href="#fn1"` → `fn1`). */
function linkTargets(root: Element): Set<string> {
  const ids = new Set<string>();
  for (const el of elements(root)) {
    const href = el.name === 'a' ? el.attribs['href'] : undefined;
    if (href && href.length > 1 && href.startsWith('#')) ids.add(href.slice(1));
  }
  return ids;
}

/** Whether `block` or an element in it is the target of a link (its `id`, or an old anchor's `name`). */
function isLinkTarget(block: Element, targets: ReadonlySet<string>): boolean {
  if (targets.size === 0) return false;
  for (const el of [block, ...elements(block)]) {
    const id = el.attribs['id'] ?? el.attribs['name'];
    if (id !== undefined && targets.has(id)) return true;
  }
  return false;
}
