import type { Document } from 'domhandler';

import { encodeQuery } from './query-encoding.js';
import { elements } from './walk.js';

const TYPO_SCHEME = /^(https?):\/(?!\/)/i;

/**
 * Resolves an attribute URL against a base, repairing `http:/x` typos, its query encoded in the document's
 * `encoding` as a browser does (`encodeQuery`). Undefined when it cannot be parsed.
 */
export function resolveUrl(raw: string, base: string, encoding?: string): string | undefined {
  const href = raw.trim().replace(TYPO_SCHEME, '$1://');
  if (href === '') return undefined;
  try {
    return new URL(encodeQuery(href, encoding), base).href;
  } catch {
    return undefined;
  }
}

/**
 * A link's `href` resolved as a browser resolves it: `resolveUrl`, and an empty one names the document itself, its
 * base URL without the fragment (reference §10.1 makes every `a[href]` absolute against the base).
 */
export function resolveHref(raw: string, base: string, encoding?: string): string | undefined {
  if (raw.trim() !== '') return resolveUrl(raw, base, encoding);
  try {
    const url = new URL(base);
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

/**
 * The document's base URL: the first `<base href>` resolved against the page URL (in the document's `encoding`),
 * else the page URL.
 */
export function baseUrlOf(document: Document, pageUrl: string, encoding?: string): string {
  for (const el of elements(document)) {
    if (el.name === 'base' && el.attribs.href) {
      return resolveUrl(el.attribs.href, pageUrl, encoding) ?? pageUrl;
    }
    if (el.name === 'body') break;
  }
  return pageUrl;
}

export interface SrcsetCandidate {
  url: string;
  size: number;
  unit: 'w' | 'x';
}

/** `/\s/.test(String.fromCharCode(c))`, without a regex call per character. */
export function isWhitespace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return (
    c === 160 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

const SPACE = /\s/g;

/** The end of the run of non-whitespace that starts at `from`. */
function wordEnd(s: string, from: number): number {
  SPACE.lastIndex = from;
  return SPACE.exec(s)?.index ?? s.length;
}

/**
 * Parses a `srcset` attribute into its candidates, as the HTML standard's algorithm does: a candidate's URL is its
 * whole run of non-whitespace, commas included (`resize=width:400,fit:max/id`, `data:image/png;base64,AAAA`), a
 * comma at its end ends the candidate, and otherwise its descriptors run to the next comma outside parentheses.
 * The URL's run is found by a regex search (a page's srcsets can add up to 700 KB, most of it `data:` URLs: a loop
 * over their characters cost more than the rest of their reading); only the short descriptors are read by character.
 */
export function parseSrcset(srcset: string): SrcsetCandidate[] {
  const out: SrcsetCandidate[] = [];
  const n = srcset.length;
  let pos = 0;
  for (;;) {
    while (pos < n && (srcset.charCodeAt(pos) === 44 /* , */ || isWhitespace(srcset.charCodeAt(pos)))) pos++;
    if (pos >= n) return out;
    const urlEnd = wordEnd(srcset, pos);
    let end = urlEnd;
    while (end > pos && srcset.charCodeAt(end - 1) === 44) end--;
    const url = srcset.slice(pos, end);
    pos = urlEnd;
    let descriptor = '1x';
    if (end === urlEnd) {
      // the descriptors, to the next comma outside parentheses; the first one is the candidate's size
      let inParens = false;
      let first = -1;
      let firstEnd = -1;
      for (; pos < n; pos++) {
        const c = srcset.charCodeAt(pos);
        if (inParens) {
          if (c === 41 /* ) */) inParens = false;
        } else if (c === 44) break;
        else if (c === 40 /* ( */) inParens = true;
        if (isWhitespace(c)) {
          if (first >= 0 && firstEnd < 0) firstEnd = pos;
        } else if (first < 0) first = pos;
      }
      if (first >= 0) descriptor = srcset.slice(first, firstEnd < 0 ? pos : firstEnd);
    }
    const match = /^(\d+(?:\.\d+)?)([wx])$/i.exec(descriptor);
    out.push({ url, size: match ? Number(match[1]) : 1, unit: match?.[2]?.toLowerCase() === 'w' ? 'w' : 'x' });
  }
}

/**
 * The largest of `candidates` (a parsed srcset); a plain `src` competes as 1x when all candidates use x descriptors.
 */
export function largestCandidate(candidates: readonly SrcsetCandidate[], src: string | undefined): string | undefined {
  let best: SrcsetCandidate | undefined;
  for (const c of candidates) if (!best || c.size > best.size) best = c;
  if (src && candidates.every((c) => c.unit === 'x') && (!best || best.size < 1)) return src;
  return best?.url ?? src;
}
