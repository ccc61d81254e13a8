// Poll widgets after a story: a question, one group of radio buttons, a vote button, and a count of votes. Read from
// the form's structure before the prune step (which drops inputs); dropped whole, question and count with it, when
// it asks a question and follows the story's end. An option picker (a size, a marital status) asks none. A survey
// (several questions) is no poll: its form holds more than one group.
import { isTag, isText, type AnyNode, type Element } from 'domhandler';

import { elements } from '../dom/walk.js';
import type { Measures } from './measure.js';
import { blocksAfterStory } from './story-end.js';
import type { Doomed } from './trace.js';

/** A poll offers this many answers, at least and at most. */
const MIN_OPTIONS = 2;
const MAX_OPTIONS = 8;
/** The widget around a poll's form holds at most this much more text: its question, its count, a label. */
const MAX_AROUND = 200;

/** Input types a poll's form may hold beside its radio buttons (the vote button). */
const BUTTON_TYPES: ReadonlySet<string> = new Set(['submit', 'button', 'hidden', 'image']);

function isSubmit(el: Element): boolean {
  if (el.name === 'button') return true;
  if (el.name === 'input') return BUTTON_TYPES.has((el.attribs['type'] ?? '').toLowerCase());
  return el.attribs['role'] === 'button';
}

/**
 * The poll forms of a page: for each group of 2-8 radio buttons of one name (`groups`, the page's radio buttons by
 * name, `findFormControls`), its `<form>`, or (without one) the nearest element holding the group and a vote button,
 * when that holds no other field (a text box, a select, a checkbox, a second group: a survey or a search form). Read
 * before the prune step, which drops inputs.
 */
export function findPollForms(groups: ReadonlyMap<string, readonly Element[]>): Set<Element> {
  const polls = new Set<Element>();
  for (const radios of groups.values()) {
    if (radios.length < MIN_OPTIONS || radios.length > MAX_OPTIONS) continue;
    const form = pollForm(radios);
    if (form && holdsOnly(form, radios)) polls.add(form);
  }
  return polls;
}

/** The `<form>` holding all of `radios`, or the nearest element holding them and a vote button. */
function pollForm(radios: readonly Element[]): Element | null {
  const all = new Set(radios);
  for (let p = radios[0]!.parent; p && isTag(p); p = p.parent) {
    let held = 0;
    let submit = false;
    for (const el of elements(p)) {
      if (all.has(el)) held++;
      else if (isSubmit(el)) submit = true;
    }
    if (held < radios.length) continue;
    if (p.name === 'form' || submit) return p;
    if (p.name === 'body') return null;
  }
  return null;
}

/** Whether `form`'s only fields are `radios` and buttons. */
function holdsOnly(form: Element, radios: readonly Element[]): boolean {
  const own = new Set(radios);
  for (const el of elements(form)) {
    if (own.has(el) || isSubmit(el)) continue;
    if (el.name === 'input' || el.name === 'select' || el.name === 'textarea') return false;
  }
  return true;
}

/** Whether a line of `el`'s text ends in a question mark: a poll asks its question (an option picker does not). */
function asksQuestion(el: Element): boolean {
  const stack: AnyNode[] = [...el.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (isText(node) && /\?\s*$/.test(node.data)) return true;
    if (isTag(node)) stack.push(...node.children);
  }
  return false;
}

/**
 * Drops the poll widgets of `container` after its story: around each of `polls` inside it, the outermost element
 * (the container excluded) holding at most 200 characters beside the form, when it asks a question (a line ending in
 * "?") and follows 100 of the story's prose, and nothing as long follows it.
 */
export function dropPolls(container: Element, measures: Measures, polls: ReadonlySet<Element>, doomed: Doomed): void {
  if (polls.size === 0) return;
  const widgets = new Set<Element>();
  const holders = new Set<Element>();
  for (const form of polls) {
    const formText = measures.get(form)?.text ?? 0;
    let widget: Element | null = null;
    const path: Element[] = [];
    for (let p: Element | null = form; p && isTag(p); p = p.parent as Element | null) {
      if (p === container) {
        widget ??= form;
        break;
      }
      path.push(p);
      if ((measures.get(p)?.text ?? 0) - formText <= MAX_AROUND) widget = p;
    }
    // not inside the container
    if (!widget || path.at(-1)?.parent !== container || !asksQuestion(widget)) continue;
    widgets.add(widget);
    for (const el of path) holders.add(el);
  }
  if (widgets.size === 0) return;
  holders.add(container);
  const found = blocksAfterStory(
    container,
    measures,
    doomed,
    (el) => holders.has(el),
    (el) => widgets.has(el),
  );
  for (const widget of found) doomed.drop(widget, 'poll');
}
