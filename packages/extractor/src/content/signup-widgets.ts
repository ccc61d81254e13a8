// Sign-up widgets inside the text: a pitch ("Get our deals texted to your phone!"), a form asking for an email address
// or a phone number, and the consent small print. The form alone goes as furniture; the widget goes whole.
import { isTag, type Element, type ParentNode } from 'domhandler';

import { holdersOf } from '../dom/walk.js';
import { anyOf, phraseTable } from './phrases/phrase-table.js';

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
 * which drops inputs. One walk: each field counts for its nearest form.
 */
export function findSignupForms(root: ParentNode): Set<Element> {
  const address = new Set<Element>();
  const message = new Set<Element>();
  // the walk's stack, and beside it each element's nearest form (two arrays: no pair an element)
  const stack: Element[] = [];
  const forms: (Element | null)[] = [];
  for (const c of root.children) {
    if (isTag(c)) {
      stack.push(c);
      forms.push(null);
    }
  }
  while (stack.length) {
    const node = stack.pop()!;
    const outer = forms.pop()!;
    const form = node.name === 'form' ? node : outer;
    if (form && node.name === 'textarea') message.add(form);
    else if (form && node.name === 'input' && asksForAddress(node)) address.add(form);
    for (const c of node.children) {
      if (isTag(c)) {
        stack.push(c);
        forms.push(form);
      }
    }
  }
  for (const form of message) address.delete(form);
  return address;
}

/** A page's title: a hero holding it and a sign-up form ("Start your free trial") is the page's head, not a widget. */
const TITLE: ReadonlySet<string> = new Set(['h1']);

/**
 * The elements of `container` (itself excluded) that hold one of `forms`, the forms included, up to the first that
 * holds the page's title (`<h1>`). Each element is climbed through once, whatever the number of forms.
 */
export function signupHolders(container: Element, forms: ReadonlySet<Element>): Set<Element> {
  const holders = new Set<Element>();
  if (forms.size === 0) return holders;
  const titled = holdersOf(container, TITLE);
  const inside = new Set<ParentNode>([container]);
  const outside = new Set<ParentNode>();
  for (const form of forms) {
    const path: Element[] = [];
    let p: ParentNode | null = form;
    while (p && !inside.has(p) && !outside.has(p)) {
      path.push(p as Element);
      p = p.parent;
    }
    const known = p !== null && inside.has(p) ? inside : outside;
    for (const el of path) known.add(el);
    if (known === outside) continue;
    for (const el of path) {
      if (titled.has(el)) break;
      holders.add(el);
    }
  }
  return holders;
}

/** A form's status message holds at most this many visible characters. */
export const MAX_FORM_STATUS = 100;

/**
 * The messages a form shows after it is sent ("Thank you! Your submission has been received!", "Thank you for
 * subscribing to our daily newsletter.", "Oops! Something went wrong while submitting the form."), which page
 * builders print beside the form and hide with their style sheet until then.
 */
const FORM_STATUSES = phraseTable(String.raw`
  thank(?:s| you)[!,.]? (?:for (?:subscribing|signing up|registering|downloading|completing|your (?:submission|message|request))\b|your (?:submission|message|request|form) (?:has been|was) (?:received|sent|submitted)\b)
  oops[!.]? something went wrong\b
  your (?:submission|message) has been (?:received|sent)\b
`);

const FORM_STATUS = anyOf(FORM_STATUSES, String.raw`^\W*`);

/** Whether a short block's text (at most `MAX_FORM_STATUS` characters) is a form's status message. */
export function isFormStatus(text: string): boolean {
  return FORM_STATUS.test(text);
}
