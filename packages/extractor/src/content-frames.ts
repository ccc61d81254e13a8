// A page that shows its content in a frame (a job board's applicant-tracking embed, a booking widget): fetched over
// HTTP, or by a browser that could not reach a cross-origin frame, its own text is a heading and a footer. The frame's
// document is another URL, which this names so that the user can scrape it; it is never fetched here.
import { isTag, type Document, type Element } from 'domhandler';

import { isHidden } from './content/hidden.js';
import { parseHtml } from './dom/parse.js';
import { baseUrlOf, resolveUrl } from './dom/urls.js';
import { elements } from './dom/walk.js';

/**
 * The most words a page's markdown may have for its frames to be named: a heading, an intro line and a footer. A
 * page with more has text of its own, and a frame on it is more likely a video, a map or a form beside that text.
 */
export const FRAMED_PAGE_MAX_WORDS = 60;

/** The most frame URLs a warning names. */
const MAX_NAMED = 3;

/** Elements whose content is not shown as the page's (a frame in them is not the page's content either). */
const UNSHOWN = new Set(['noscript', 'template', 'head']);

/** A `width`/`height` attribute or inline size of at most 2 pixels: a tracking or messaging frame, not content. */
function isTiny(el: Element): boolean {
  const { width, height, style } = el.attribs;
  const tiny = (v: string | undefined): boolean => v !== undefined && /^\s*[0-2](?:\.\d*)?\s*(?:px)?\s*$/i.test(v);
  if (tiny(width) || tiny(height)) return true;
  return style !== undefined && /(?:^|;)\s*(?:width|height)\s*:\s*[0-2](?:\.\d*)?(?:px)?\s*(?:;|$)/i.test(style);
}

/** Whether the frame or one of its ancestors keeps it from being shown. */
function isUnshown(el: Element): boolean {
  if (isHidden(el) || isTiny(el)) return true;
  for (let p = el.parent; p && isTag(p); p = p.parent) if (UNSHOWN.has(p.name) || isHidden(p)) return true;
  return false;
}

/**
 * The absolute `http(s)` URLs of the frames `document` shows (`<iframe src>`, `<frame src>`), in document order and
 * once each: not a `srcdoc` frame (its content is in the page), nor a hidden, tiny or `<noscript>` one (Google Tag
 * Manager's).
 */
export function shownFrameUrls(document: Document, pageUrl: string, encoding?: string): string[] {
  const base = baseUrlOf(document, pageUrl, encoding);
  const urls: string[] = [];
  for (const el of elements(document)) {
    if (el.name !== 'iframe' && el.name !== 'frame') continue;
    const src = el.attribs['src']?.trim();
    if (!src || el.attribs['srcdoc'] !== undefined || isUnshown(el)) continue;
    const url = resolveUrl(src, base, encoding);
    if (url && /^https?:/i.test(url) && url !== pageUrl && !urls.includes(url)) urls.push(url);
  }
  return urls;
}

/** A link's or image's target (`](…)`), which is no word of the text, or a word. */
const TARGET_OR_WORD = /\]\([^)]*\)|[\p{L}\p{N}]+/gu;

/**
 * The number of words of a markdown text, up to one past `FRAMED_PAGE_MAX_WORDS` (link and image URLs not counted):
 * read from its start and stopped there, so a long page costs its first words only.
 */
export function wordCount(markdown: string): number {
  let n = 0;
  for (const [match] of markdown.matchAll(TARGET_OR_WORD)) {
    if (match.startsWith('](')) continue;
    if (++n > FRAMED_PAGE_MAX_WORDS) break;
  }
  return n;
}

/**
 * The frames that hold a page's content, when its markdown came out (nearly) empty and the page shows frames: the
 * page is parsed again, as the empty-main retry does, since this is asked only of the rare near-empty page.
 */
export function contentFrames(rawHtml: string, markdown: string, pageUrl: string, encoding?: string): string[] {
  if (wordCount(markdown) > FRAMED_PAGE_MAX_WORDS || !/<i?frame[\s>]/i.test(rawHtml)) return [];
  return shownFrameUrls(parseHtml(rawHtml), pageUrl, encoding);
}

/** How a warning names `urls` (at most `MAX_NAMED`, the count of the others after them). */
export function namedFrames(urls: readonly string[]): string {
  const named = urls.slice(0, MAX_NAMED).join(', ');
  const more = urls.length - MAX_NAMED;
  return more > 0 ? `${named} (and ${more} more)` : named;
}
