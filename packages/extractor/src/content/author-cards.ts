// Author cards in markup without class words (CSS-in-JS names such as `css-1dsojn8`, which the author-box rule of
// `hints.ts` cannot read): the writer's name linked to their author page, and a bio that names the writer again
// ("Jane Doe is a contributing writer …", "… Jane Doe has covered …").
import { isTag, type Element } from 'domhandler';

import { elements, textOf } from '../dom/walk.js';
import type { Measures } from './measure.js';

/** An author's page: `/author/jane-doe`, `/authors/…`, `/contributors/…`, `/writers/…`. */
const AUTHOR_PAGE = /\/(?:authors?|contributors?|writers?)\/[^/?#\s]/i;

/** A writer's full name: two words or more ("Jane Doe"; a first name alone is met in the story's own text too). */
const FULL_NAME = /^\S+(?:\s+\S+)+$/;

/** What follows the writer's name in a bio. */
const BIO_OPENING = /^(?:\s(?:is|has|was|covers|writes|joined)\b|['’]s\s)/i;

/** A card holds at most this many characters: a name, a role, a photo's label and a bio of a few sentences. */
const MAX_CARD = 1000;

/** A bio's paragraph holds at least this many characters of its own. */
const MIN_BIO = 40;

/** A bio is at least this long (a byline "By Jane Doe" is no bio). */
const MIN_CARD = 80;

/** Wrappers climbed from the name's link to the card: the name's line, the card's head, the card. */
const MAX_CLIMB = 6;

/** A card is a small part of the content (on a writer's profile page, the bio is the page). */
const MAX_SHARE = 0.3;

/**
 * The author cards under `container`: for each link to an author's page whose text is a full name (up to 60
 * characters), the lowest of its first `MAX_CLIMB` wrappers (of `MIN_CARD` to `MAX_CARD` characters, under `MAX_SHARE`
 * of the container) that holds a bio of that name apart from the link (`holdsBio`). Each wrapper is read once, whatever
 * the number of links under it.
 */
export function findAuthorCards(container: Element, measures: Measures): Element[] {
  const total = measures.get(container)?.text ?? 0;
  const cards: Element[] = [];
  const read = new Set<Element>();
  for (const link of elements(container)) {
    if (link.name !== 'a' || !AUTHOR_PAGE.test(link.attribs['href'] ?? '')) continue;
    const name = textOf(link);
    if (name.length > 60 || !FULL_NAME.test(name)) continue;
    let el: Element = link;
    for (let i = 0; i < MAX_CLIMB; i++) {
      const parent = el.parent;
      if (!parent || parent === container || !isTag(parent) || read.has(parent)) break;
      el = parent;
      read.add(el);
      const text = measures.get(el)?.text ?? 0;
      if (text > MAX_CARD || text >= MAX_SHARE * total) break;
      if (text >= MIN_CARD && holdsBio(el, link, name, measures)) {
        cards.push(el);
        break;
      }
    }
  }
  return cards;
}

/**
 * Whether `card` holds a paragraph (`p`, or a `div` with its own run of text) apart from the name's `link` that names
 * the writer with a bio's opening ("Jane Doe is …", "… from the Pacific Northwest, Jane Doe has …"): the card's name
 * line and its bio. A paragraph of the story that links a staff member's name ("Our tester [Jane Doe] has run …")
 * holds its link, and is the story's.
 */
function holdsBio(card: Element, link: Element, name: string, measures: Measures): boolean {
  const around = new Set<Element>();
  for (let p = link.parent; p && p !== card && isTag(p); p = p.parent) around.add(p);
  for (const block of elements(card)) {
    if ((block.name !== 'p' && block.name !== 'div') || around.has(block)) continue;
    // a bio's own run of text: wrappers without one are not read (at most MAX_CARD / MIN_BIO blocks are)
    if ((measures.get(block)?.own ?? 0) < MIN_BIO) continue;
    const text = textOf(block);
    for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + name.length)) {
      if (BIO_OPENING.test(text.slice(at + name.length, at + name.length + 10))) return true;
    }
  }
  return false;
}
