// A quotation set in an `<aside>`: forum software (Discourse) writes the post a reply quotes as
// `<aside class="quote"><div class="title">alice:</div><blockquote>…</blockquote></aside>` inside the reply.
import { isTag, type Element } from 'domhandler';

import { textOf } from '../dom/walk.js';

/** Characters of the aside outside its quotation: a title naming whom it quotes ("alice:", "In reply to alice"). */
const MAX_TITLE = 80;

/**
 * Whether `el` is an `<aside>` holding a quotation as a forum writes it: a short title naming whom it quotes, then one
 * `<blockquote>` as its last element. It is part of the reply around it (which loses what it answers without it), not
 * a sidebar. A pull quote (its attribution after the quotation), or an aside holding more than a title beside its
 * quotation, stays chrome.
 */
export function isQuoteAside(el: Element): boolean {
  if (el.name !== 'aside') return false;
  let quote = false;
  let title = 0;
  for (const c of el.children) {
    if (!isTag(c)) continue;
    if (quote) return false;
    if (c.name === 'blockquote') quote = true;
    else title += textOf(c).trim().length;
  }
  return quote && title <= MAX_TITLE;
}
