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

/** Parses a `srcset` attribute into its candidates. */
export function parseSrcset(srcset: string): Candidate[] {
  const out: Candidate[] = [];
  for (const part of srcset.split(/,(?=\s*\S)(?![^(]*\))/)) {
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
