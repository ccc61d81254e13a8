// Sign-up widgets inside the text: a pitch ("Get our deals texted to your phone!"), a form asking for an email address
// or a phone number, and the consent small print. The form alone goes as furniture; the widget goes whole.
import type { Element, ParentNode } from 'domhandler';

import { contains, elements } from '../dom/walk.js';

/** Inputs of a contact address: typed as one, or named so (`name="email"`, `placeholder="Your phone number"`). */
const ADDRESS_INPUT_NAME = /e-?mail|phone|mobile/i;

/** A widget holds at most this many characters of text: a pitch, labels and the consent small print. */
export const MAX_SIGNUP_TEXT = 600;

function asksForAddress(input: Element): boolean {
  const a = input.attribs;
  const type = (a['type'] ?? 'text').toLowerCase();
  if (type === 'email' || type === 'tel') return true;
  if (type !== 'text') return false;
  return ADDRESS_INPUT_NAME.test(
    `${a['name'] ?? ''} ${a['id'] ?? ''} ${a['placeholder'] ?? ''} ${a['aria-label'] ?? ''}`,
  );
}

/**
 * The sign-up forms under `root`: forms with an input asking for an email address or a phone number and no
 * `<textarea>` (a comment or contact form asks for a message too, and is no sign-up). Read before the prune step,
 * which drops inputs.
 */
export function findSignupForms(root: ParentNode): Set<Element> {
  const forms = new Set<Element>();
  for (const el of elements(root)) {
    if (el.name !== 'form' || forms.has(el)) continue;
    let address = false;
    let message = false;
    for (const field of elements(el)) {
      if (field.name === 'textarea') message = true;
      else if (field.name === 'input' && asksForAddress(field)) address = true;
    }
    if (address && !message) forms.add(el);
  }
  return forms;
}

/** A page's title: a hero holding it and a sign-up form ("Start your free trial") is the page's head, not a widget. */
const SECTION_HEADINGS: ReadonlySet<string> = new Set(['h1']);

/**
 * The elements of `container` (itself excluded) that hold one of `forms`, the forms included, up to the first that
 * holds the page's title (`<h1>`).
 */
export function signupHolders(container: Element, forms: ReadonlySet<Element>): Set<Element> {
  const holders = new Set<Element>();
  for (const form of forms) {
    if (!contains(container, form)) continue;
    for (let p: ParentNode | null = form; p && p !== container && !holders.has(p as Element); p = p.parent) {
      const el = p as Element;
      if ([...elements(el)].some((h) => SECTION_HEADINGS.has(h.name))) break;
      holders.add(el);
    }
  }
  return holders;
}
