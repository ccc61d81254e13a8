// Rails of other stories after a story: "Latest news", "Most read", "In other news", whatever their label says (or
// without one). Read from structure and the page's own address: a block after the story whose items are headlines
// linking to pages shaped like this one (`/news/2026/11/<slug>` beside `/news/2026/11/<this-slug>`), each with at most
// a line of teaser text or a time. Such a rail can outweigh a brief several times, so no share of the container
// guards it; the links' likeness to the page's address does (a listicle's items, forum posters, "See also" pages of
// another shape stay).
import { isTag, isText, type Element } from 'domhandler';

import { elements, textOf } from '../dom/walk.js';
import type { Measure, Measures } from './measure.js';
import { isOwnSite, linkUrl, webUrl, type PageAddress } from './site-links.js';
import { MAX_LABEL, repeatsItems } from './rail-items.js';
import { blocksAfterStory } from './story-end.js';
import type { Doomed } from './trace.js';

/** A rail lists at least this many other stories. */
const MIN_STORIES = 3;
/** A headline: a link's text of at least this many words (a section's or a doc page's name is shorter). */
const MIN_HEADLINE_WORDS = 5;
/** The headlines are at least this share of the rail's text (the rest: teaser lines, times, a label). */
const MIN_HEADLINE_SHARE = 0.2;
/** Unlinked text a rail holds per story, at least (a time, a teaser: not a bare list of links) and at most. */
const MIN_PLAIN_PER_STORY = 10;
const MAX_PLAIN_PER_STORY = 200;

/**
 * Drops rails of other stories in `container` after its story: blocks, after 100 of the story's prose, that hold 3+
 * headlines (links of 5+ words to pages whose address has this page's shape: host, section, depth, slug or id), the
 * headlines 20% or more of the block's text and at most 200 other characters a headline, when what follows the first
 * rail (outside the rails) holds less prose than that (the story has ended). Does nothing without the page's address
 * or when it does not look like a story's (its last part a slug or a numeric id). Links are read against the
 * document's base, and go to the page's site when they go to its host or its base's.
 */
export function dropStoryRails(
  container: Element,
  measures: Measures,
  address: PageAddress | undefined,
  doomed: Doomed,
): void {
  const page = address ? shapeOf(address.page) : null;
  if (!address || !page?.story) return;
  // headlines to stories shaped like this one (`count`, `headlineText`), and to any story of the site (`items`)
  const count = new Map<Element, number>();
  const headlineText = new Map<Element, number>();
  const items = new Set<Element>();
  for (const a of elements(container)) {
    if (a.name !== 'a') continue;
    const href = a.attribs['href'];
    const text = textOf(a).trim();
    if (!href || text.split(/\s+/).length < MIN_HEADLINE_WORDS) continue;
    const url = linkUrl(href, address);
    const shape = url && isOwnSite(url, address) ? shapeOf(url) : null;
    if (!shape || shape.id === page.id) continue;
    for (let p = a.parent; p && isTag(p) && !items.has(p); p = p.parent) {
      items.add(p);
      if (p === container) break;
    }
    if (shape.key !== page.key) continue;
    const chars = measures.get(a)?.text ?? text.length;
    for (let p = a.parent; p && isTag(p); p = p.parent) {
      count.set(p, (count.get(p) ?? 0) + 1);
      headlineText.set(p, (headlineText.get(p) ?? 0) + chars);
      if (p === container) break;
    }
  }
  if ((count.get(container) ?? 0) < MIN_STORIES) return;
  const rails = blocksAfterStory(
    container,
    measures,
    doomed,
    (el) => count.has(el),
    (el, m) => (count.get(el) ?? 0) >= MIN_STORIES && isRail(el, m, count.get(el)!),
  );
  for (const rail of rails) {
    const label = labelBefore(rail, measures);
    if (label) doomed.drop(label, 'story-rail');
    doomed.drop(rail, 'story-rail');
  }

  function isRail(el: Element, m: Measure, n: number): boolean {
    const linked = headlineText.get(el) ?? 0;
    const plain = m.text - linked;
    return (
      linked >= MIN_HEADLINE_SHARE * m.text &&
      plain >= MIN_PLAIN_PER_STORY * n &&
      plain <= MAX_PLAIN_PER_STORY * n &&
      repeatsItems(el, count, measures, (c) => items.has(c), MIN_STORIES)
    );
  }
}

/** The short unlinked label right before `el` (a rail's title set as a heading, a bold line or a span), if any. */
export function labelBefore(el: Element, measures: Measures): Element | null {
  let prev = el.prev;
  while (prev && !isTag(prev)) {
    if (isText(prev) && prev.data.trim()) return null;
    prev = prev.prev;
  }
  if (!prev || !isTag(prev)) return null;
  const m = measures.get(prev);
  if (!m || m.text === 0 || m.text > MAX_LABEL || m.link > 0) return null;
  return /[.!?:]["”’)]?\s*$/.test(textOf(prev)) ? null : prev;
}

/** Whether `href` names one story of a site: a numeric id, or a slug of 3+ words under a section. */
export function namesStory(href: string | URL): boolean {
  const url = typeof href === 'string' ? webUrl(href, undefined) : href;
  return (url && shapeOf(url)?.story) ?? false;
}

/** The shape of a story's address: its section, the number of path parts (and query keys), and its own id. */
interface StoryShape {
  /** The address names one story: an id, or a slug of 3+ words (`local-news` is a section's, not a story's). */
  story: boolean;
  key: string;
  id: string;
}

/** A slug of words (`bridge-closure`, `cafe_closes`) or a numeric id: the last part of a story's address. */
const SLUG = /^(?=.*[a-z])[a-z0-9]+(?:[-_][a-z0-9]+)+(?:\.[a-z]{2,5})?$/i;
const NUMERIC_ID = /^\d{3,}(?:\.[a-z]{2,5})?$/;
/** Words of the page's own slug, at least, when its address holds no id: a headline's slug, not a section's name. */
const MIN_STORY_SLUG_WORDS = 3;

/**
 * The shape of `url` when it looks like a story's address: its last path part a slug or a numeric id, or its query
 * holding a numeric id (`news.php?id=55210`). Null otherwise (an index, a section, a profile's name).
 */
function shapeOf(url: URL): StoryShape | null {
  const parts = url.pathname.split('/').filter(Boolean);
  const last = parts.at(-1) ?? '';
  const keys = [...url.searchParams.keys()].sort();
  const queryId = [...url.searchParams.values()].some((v) => NUMERIC_ID.test(v));
  const id = NUMERIC_ID.test(last) || /\d{3,}(?:\.[a-z]{2,5})?$/i.test(last) || queryId;
  // a lone slug at the site's root may be any page of it (about-us, a service); a section or an id makes it a story
  if (!(SLUG.test(last) && parts.length > 1) && !id) return null;
  const section = parts.length > 1 ? parts[0] : '';
  return {
    story: id || last.split(/[-_]/).length >= MIN_STORY_SLUG_WORDS,
    key: `${parts.length}|${section}|${id ? 'id' : 'slug'}|${keys.join('&')}`,
    id: `${url.pathname}${url.search}`,
  };
}
