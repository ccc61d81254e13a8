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

interface Candidate {
  url: string;
  size: number;
  unit: 'w' | 'x';
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
    const c = srcset[i]!;
    if (c === ',' && textAhead && !closeAhead) cuts.push(i);
    if (c === ')') closeAhead = true;
    else if (c === '(') closeAhead = false;
    if (!/\s/.test(c)) textAhead = true;
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

/** Parses a `srcset` attribute into its candidates. */
export function parseSrcset(srcset: string): Candidate[] {
  const out: Candidate[] = [];
  for (const part of splitCandidates(srcset)) {
    const [url, descriptor] = part.trim().split(/\s+/, 2);
    if (!url) continue;
    const match = /^(\d+(?:\.\d+)?)([wx])$/i.exec(descriptor ?? '1x');
    out.push({ url, size: match ? Number(match[1]) : 1, unit: match?.[2]?.toLowerCase() === 'w' ? 'w' : 'x' });
  }
  return out;
}

/** The largest candidate of a srcset; a plain `src` competes as 1x when all candidates use x descriptors. */
export function largestSrc(srcset: string, src: string | undefined): string | undefined {
  const candidates = parseSrcset(srcset);
  if (src && candidates.every((c) => c.unit === 'x')) candidates.push({ url: src, size: 1, unit: 'x' });
  let best: Candidate | undefined;
  for (const c of candidates) if (!best || c.size > best.size) best = c;
  return best?.url ?? src;
}
