// A call to action styled as a button is furniture (`link-button`), unless it is the only way on the content offers
// and an action on the page's own item: a job posting's "Apply" (`/jobs/4821/apply`) is what its reader does next,
// and its URL is what a scraper of postings wants.
import type { Element } from 'domhandler';

import { elements } from '../dom/walk.js';
import { linkUrl, type PageAddress } from './site-links.js';

/** A link that goes nowhere else: a fragment of the page itself, a script's handler, or none. */
const NOWHERE = /^(?:#|javascript:|$)/i;

/**
 * Whether `button` leads below the page's own address (`/jobs/4821` → `/jobs/4821/apply`, same host; never below a
 * home page) and every link of `container` goes where it goes (however often it is offered): the content's only way
 * on, an action on its item. Links to the page itself (`#…`) are not ways on.
 */
export function isSoleAction(button: Element, container: Element, address: PageAddress | undefined): boolean {
  const target = button.attribs['href']?.trim() ?? '';
  if (!address || NOWHERE.test(target)) return false;
  const url = linkUrl(target, address);
  const own = address.page.pathname.replace(/\/$/, '');
  // a home page's own item would be the whole site
  if (!own || !url || url.host !== address.page.host || !url.pathname.startsWith(`${own}/`)) return false;
  if (url.pathname === `${own}/`) return false;
  for (const el of elements(container)) {
    if (el.name !== 'a') continue;
    const href = el.attribs['href']?.trim() ?? '';
    if (!NOWHERE.test(href) && href !== target) return false;
  }
  return true;
}
