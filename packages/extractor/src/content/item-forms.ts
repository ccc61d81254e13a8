// Forms that hold posts: thread software wraps each comment's text in a form of one class (an inline editor).
import type { Element } from 'domhandler';

import { elements, textOf } from '../dom/walk.js';
import type { Measure } from './measure.js';

/** A form class shared by this many forms of the container is an item's wrapper, not a widget (search, sign-up). */
const MIN_ITEM_FORMS = 3;

/** The classes shared by three or more forms, per container (computed once, on the first form met). */
const formClasses = new WeakMap<Element, Set<string>>();

/**
 * Whether `form` wraps an item's text: it holds sentences and its class is shared by three or more forms of the
 * container (old Reddit's `usertext` around every comment). Such a form is not furniture, whatever its length; a
 * shop's filter forms (options without sentences) are.
 */
export function isItemForm(form: Element, m: Measure, container: Element): boolean {
  const cls = form.attribs['class'];
  if (!cls || m.prose <= 0) return false;
  let shared = formClasses.get(container);
  if (!shared) {
    const counts = new Map<string, number>();
    for (const el of elements(container)) {
      const c = el.name === 'form' ? el.attribs['class'] : undefined;
      if (c) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    shared = new Set([...counts].filter(([, n]) => n >= MIN_ITEM_FORMS).map(([c]) => c));
    formClasses.set(container, shared);
  }
  return shared.has(cls) && SENTENCE.test(textOf(form));
}

/** Sentence punctuation: a comment's text, not a filter's options ("USB-C 12 items"). */
const SENTENCE = /[\p{L}\p{N}][.!?,;:](?:\s|$)/u;
