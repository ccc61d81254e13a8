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

const SRCSET_MARKS = /[,()]/g;
const SPACE = /\s/g;

/**
 * Splits a `srcset` at its candidate commas: those followed by more than whitespace and not inside parentheses
 * (the next parenthesis ahead is not a closing one). The commas and parentheses are found by a regex search (a
 * page's srcsets can add up to 700 KB: a loop over their characters cost more than the rest of their reading).
 */
function splitCandidates(srcset: string): string[] {
  let lastText = srcset.length - 1;
  while (lastText >= 0 && isWhitespace(srcset.charCodeAt(lastText))) lastText--;
  const parts: string[] = [];
  let start = 0;
  // commas met since the last parenthesis: cuts if the next one opens (or there is none), not if it closes
  let pending: number[] = [];
  const cut = () => {
    for (const at of pending) {
      if (at >= lastText) break;
      parts.push(srcset.slice(start, at));
      start = at + 1;
    }
    pending = [];
  };
  SRCSET_MARKS.lastIndex = 0;
  for (let m = SRCSET_MARKS.exec(srcset); m; m = SRCSET_MARKS.exec(srcset)) {
    const c = srcset.charCodeAt(m.index);
    if (c === 44 /* , */) pending.push(m.index);
    else if (c === 41 /* ) */) pending = [];
    else cut();
  }
  cut();
  parts.push(srcset.slice(start));
  return parts;
}

/** The end of the run of non-whitespace that starts at `from`. */
function wordEnd(s: string, from: number): number {
  SPACE.lastIndex = from;
  return SPACE.exec(s)?.index ?? s.length;
}

/** Parses a `srcset` attribute into its candidates. */
export function parseSrcset(srcset: string): SrcsetCandidate[] {
  const out: SrcsetCandidate[] = [];
  for (const raw of splitCandidates(srcset)) {
    // the URL is the first word, the descriptor the second (`split(/\s+/, 2)` without scanning a long data: URL twice)
    const part = raw.trim();
    const urlEnd = wordEnd(part, 0);
    if (urlEnd === 0) continue;
    const url = part.slice(0, urlEnd);
    let from = urlEnd;
    while (from < part.length && isWhitespace(part.charCodeAt(from))) from++;
    const descriptor = from < part.length ? part.slice(from, wordEnd(part, from)) : '1x';
    const match = /^(\d+(?:\.\d+)?)([wx])$/i.exec(descriptor);
    out.push({ url, size: match ? Number(match[1]) : 1, unit: match?.[2]?.toLowerCase() === 'w' ? 'w' : 'x' });
  }
  return out;
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
