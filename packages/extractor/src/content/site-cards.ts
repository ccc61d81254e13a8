// Cards of the site's other pages after a short story: "Stay ahead with us", "Our services", "Explore more", whatever
// their label says. Read from structure: a block after the story made of repeated cards, each pointing at one page of
// the site (a title link, often a "Learn more" link to the same page) with a line of teaser beside it. The story rails
// (`story-rails.ts`) take cards whose pages are shaped like this one; these point at pages of any shape (a service, a
// section, a podcast), so the story's size guards them instead: the story before them is a brief or a stub (after a
// longer one, such cards were a service page's own content on the dev split). Only on a page that declares itself an
// article (the caller's guard): a documentation hub is a short intro above described links to its pages, which are its
// content. A listicle's items (links to other sites), a "See also" list (bare links), cards the story announces ("the
// guides we wrote on it:"), priced cards (a gift guide's picks), links inside a sentence or beside a time (the text's
// own list, a reply's header) and a roundup that ends in its own closing prose stay.
import { isTag, type Element } from 'domhandler';

import { elements, textOf } from '../dom/walk.js';
import { isAnnouncedList } from './announced-lists.js';
import type { Measure, Measures } from './measure.js';
import { PRICE } from './product-cards.js';
import { INLINE_TAGS } from './tags.js';
import { isOwnSite, linkUrl, type PageAddress } from './site-links.js';
import { repeatsItems } from './rail-items.js';
import { blocksAfterStory } from './story-end.js';
import { labelBefore, namesStory } from './story-rails.js';
import type { Doomed } from './trace.js';

/** A block holds at least this many cards. */
const MIN_CARDS = 3;
/** A card's linked text (its title, "Learn more") is at most this long: a name, not a paragraph with a link in it. */
const MAX_CARD_TITLE = 100;
/** Unlinked text beside each card's title: a line of teaser, at least and at most. */
const MIN_TEASER = 10;
const MAX_TEASER = 250;
/** The story before the cards holds at most this much prose: a brief or a stub (about 450 words). */
const MAX_STORY = 2800;

/** Characters beside a card's title on its line, at most (a bullet, a colon). */
const MAX_BESIDE_TITLE = 3;

/** Several pages, or a page of another site: not one card's target. */
const MANY = '';

/**
 * Drops blocks of 3+ cards of the site's pages in `container` after a short story: after 100 and at most 2,800 of the
 * story's prose, a block whose children with text (through wrappers; one short unlinked label allowed) each link to one
 * page of the site (not this one: every link of the card goes there) with 10-250 characters of unlinked teaser and at
 * most 100 of linked text and no price, its first link a title on a line of its own, not announced by the sentence
 * before it (`announced-lists.ts`), when what follows the first block holds less prose than 100 (the story has
 * ended). Does nothing without the page's address or when it does not name one story; the caller runs it on declared
 * articles only.
 */
export function dropSiteCards(
  container: Element,
  measures: Measures,
  address: PageAddress | undefined,
  doomed: Doomed,
): void {
  if (!address || !namesStory(address.page)) return;
  const own = `${address.page.pathname}${address.page.search}`;
  // the one page each element's links go to (MANY when several, or another site's), and how many pages
  const target = new Map<Element, string>();
  const pages = new Map<Element, Set<string>>();
  for (const a of elements(container)) {
    if (a.name !== 'a' || !a.attribs['href']) continue;
    const url = linkUrl(a.attribs['href'], address);
    if (!url || url.hash) continue;
    const page = isOwnSite(url, address) ? `${url.pathname}${url.search}` : MANY;
    if (page === own) continue;
    for (let p: Element | null = a; p && isTag(p); p = p.parent as Element | null) {
      const seen = target.get(p);
      target.set(p, seen === undefined || seen === page ? page : MANY);
      if (page !== MANY) pages.set(p, (pages.get(p) ?? new Set()).add(page));
      if (p === container) break;
    }
  }
  const count = new Map<Element, number>();
  for (const [el, set] of pages) count.set(el, set.size);
  if ((count.get(container) ?? 0) < MIN_CARDS) return;
  const blocks = blocksAfterStory(
    container,
    measures,
    doomed,
    (el) => target.has(el),
    (el, m, proseBefore) =>
      proseBefore <= MAX_STORY && (count.get(el) ?? 0) >= MIN_CARDS && isCards(el, m, count.get(el)!),
  );
  for (const block of blocks) {
    const label = labelBefore(block, measures);
    if (label) doomed.drop(label, 'site-cards');
    doomed.drop(block, 'site-cards');
  }

  function isCard(el: Element, m: Measure): boolean {
    const page = target.get(el);
    if (!page) return false;
    const teaser = m.text - m.link;
    // a priced card is a pick (a gift guide's), which the references keep
    return (
      m.link > 0 &&
      m.link <= MAX_CARD_TITLE &&
      teaser >= MIN_TEASER &&
      teaser <= MAX_TEASER &&
      !PRICE.test(textOf(el)) &&
      titled(el)
    );
  }

  /**
   * Whether the card's first link is a title on a line of its own: it holds a block (`<a><p>Name</p></a>`), or the
   * block around it holds nothing else (`<h3><a>Name</a></h3>`). A link inside a sentence ("Spar urethane, which
   * stands up to rain") is the text's, and a linked name beside a time is a reply's header.
   */
  function titled(card: Element): boolean {
    let link: Element | undefined;
    for (const e of elements(card)) {
      if (e.name !== 'a') continue;
      link = e;
      break;
    }
    if (!link) return false;
    for (const e of elements(link)) if (!INLINE_TAGS.has(e.name)) return true;
    let line: Element = link;
    while (line !== card && INLINE_TAGS.has(line.name) && line.parent && isTag(line.parent)) line = line.parent;
    return textOf(line).trim().length - textOf(link).trim().length <= MAX_BESIDE_TITLE;
  }

  /** Whether the sentence before `el`, or before a wrapper holding all its cards, announces them. */
  function announced(el: Element): boolean {
    const all = count.get(el);
    for (let box: Element | undefined = el; box;) {
      if (isAnnouncedList(box, measures)) return true;
      box = box.children.find((c): c is Element => isTag(c) && count.get(c) === all);
    }
    return false;
  }

  function isCards(el: Element, m: Measure, n: number): boolean {
    return (
      target.get(el) === MANY &&
      m.text - m.link <= MAX_TEASER * n &&
      !announced(el) &&
      repeatsItems(el, count, measures, isCard, MIN_CARDS)
    );
  }
}
