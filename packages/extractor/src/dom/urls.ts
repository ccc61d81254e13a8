import type { Document } from 'domhandler';

import { elements } from './walk.js';

const TYPO_SCHEME = /^(https?):\/(?!\/)/i;

/** Resolves an attribute URL against a base, repairing `http:/x` typos. Undefined when it cannot be parsed. */
export function resolveUrl(raw: string, base: string): string | undefined {
  const href = raw.trim().replace(TYPO_SCHEME, '$1://');
  if (href === '') return undefined;
  try {
    return new URL(href, base).href;
  } catch {
    return undefined;
  }
}

/** The document's base URL: the first `<base href>` resolved against the page URL, else the page URL. */
export function baseUrlOf(document: Document, pageUrl: string): string {
  for (const el of elements(document)) {
    if (el.name === 'base' && el.attribs.href) {
      return resolveUrl(el.attribs.href, pageUrl) ?? pageUrl;
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

/**
 * Splits a `srcset` at its candidate commas: those followed by more than whitespace and not inside parentheses
 * (the next parenthesis ahead is not a closing one). One pass from the end, so a long attribute stays linear.
 */
function splitCandidates(srcset: string): string[] {
  const cuts: number[] = [];
  let closeAhead = false;
  let textAhead = false;
  for (let i = srcset.length - 1; i >= 0; i--) {
    const c = srcset.charCodeAt(i);
    if (c === 44 /* , */ && textAhead && !closeAhead) cuts.push(i);
    if (c === 41 /* ) */) closeAhead = true;
    else if (c === 40 /* ( */) closeAhead = false;
    if (!textAhead && !isWhitespace(c)) textAhead = true;
  }
  const parts: string[] = [];
  let start = 0;
  for (let k = cuts.length - 1; k >= 0; k--) {
    parts.push(srcset.slice(start, cuts[k]));
    start = cuts[k]! + 1;
  }
  parts.push(srcset.slice(start));
  return parts;
}

/** The end of the run of non-whitespace that starts at `from`. */
function wordEnd(s: string, from: number): number {
  let i = from;
  while (i < s.length && !isWhitespace(s.charCodeAt(i))) i++;
  return i;
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

/** The largest of `candidates` (a parsed srcset); a plain `src` competes as 1x when all candidates use x descriptors. */
export function largestCandidate(candidates: readonly SrcsetCandidate[], src: string | undefined): string | undefined {
  let best: SrcsetCandidate | undefined;
  for (const c of candidates) if (!best || c.size > best.size) best = c;
  if (src && candidates.every((c) => c.unit === 'x') && (!best || best.size < 1)) return src;
  return best?.url ?? src;
}
