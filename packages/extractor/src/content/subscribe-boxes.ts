// Subscribe boxes after a paywall stub ("This story is for subscribers", "Members get the full story"), whatever
// their wording (`paywall.ts` knows some by their words): a short box after the story's end whose links are calls to
// action, one of them to the site's sign-in, subscribe or plans page, beside a line or two of pitch.
import { isTag, type Element } from 'domhandler';

import { elements, textOf } from '../dom/walk.js';
import type { Measure, Measures } from './measure.js';
import { anyOf, phraseTable } from './phrases/phrase-table.js';
import { isOwnSite, linkUrl, type PageAddress } from './site-links.js';
import { blocksAfterStory } from './story-end.js';
import { namesStory } from './story-rails.js';
import type { Doomed } from './trace.js';

/** Path parts of the pages a paywall box sends a reader to (signing in, subscribing, choosing a plan): whole parts. */
const ACCOUNT_PATHS = phraseTable(String.raw`
  log-?in
  sign-?in
  sign-?up
  register
  subscribe
  subscriptions?
  join
  account
  plans
  pricing
  membership
`);

const ACCOUNT_PATH = anyOf(ACCOUNT_PATHS, '^', '$');

/** A box holds at most this much text, and this much outside its links (a pitch, not a story's paragraph). */
const MAX_BOX = 300;
const MAX_PITCH = 200;
/** Its pitch holds at least this much text (a bare row of links is a menu). */
const MIN_PITCH = 20;
/** Unlinked characters beside a call in its line, at most (a separator between two calls). */
const MAX_BETWEEN_CALLS = 3;
/** Each of its links is a call to action of at most this many words. */
const MAX_CALL_WORDS = 5;

/**
 * Drops subscribe boxes in `container` after its story: blocks after 100 of the story's prose, with nothing as long
 * after them, of at most 300 characters (20-200 of them outside links), whose links are all calls of 5 words or
 * fewer, one of them standing apart (not inside a sentence) and going to a page of this site whose path names signing
 * in, subscribing or plans. Only on a page whose address names one story (`namesStory`).
 */
export function dropSubscribeBoxes(
  container: Element,
  measures: Measures,
  address: PageAddress | undefined,
  doomed: Doomed,
): void {
  if (!address || !namesStory(address.page)) return;
  // the elements holding a link to the site's account pages
  const calls = new Set<Element>();
  for (const a of elements(container)) {
    if (a.name !== 'a' || !isAccountLink(a.attribs['href'], address)) continue;
    // a call stands apart, as a button does: a link inside a sentence ("Try it free today") is the text's own
    const run = a.parent && isTag(a.parent) ? measures.get(a.parent) : undefined;
    if (!run || run.own - run.ownLink > MAX_BETWEEN_CALLS) continue;
    for (let p: Element | null = a; p && isTag(p) && !calls.has(p); p = p.parent as Element | null) {
      calls.add(p);
      if (p === container) break;
    }
  }
  if (!calls.has(container)) return;
  const boxes = blocksAfterStory(container, measures, doomed, (el) => calls.has(el), isBox);
  for (const box of boxes) doomed.drop(box, 'subscribe-box');

  function isBox(el: Element, m: Measure): boolean {
    const pitch = m.text - m.link;
    if (!calls.has(el) || el.name === 'a' || m.text > MAX_BOX || pitch > MAX_PITCH || pitch < MIN_PITCH) return false;
    for (const a of elements(el)) {
      if (a.name === 'a' && textOf(a).trim().split(/\s+/).length > MAX_CALL_WORDS) return false;
    }
    return true;
  }
}

/** Whether `href` goes to a page of the page's own site whose path names signing in, subscribing or plans. */
function isAccountLink(href: string | undefined, address: PageAddress): boolean {
  const url = href ? linkUrl(href, address) : null;
  return url !== null && isOwnSite(url, address) && url.pathname.split('/').some((part) => ACCOUNT_PATH.test(part));
}
