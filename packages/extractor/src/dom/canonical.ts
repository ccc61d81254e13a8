import type { Document } from 'domhandler';

import { resolveUrl } from './urls.js';
import { elements } from './walk.js';

/**
 * The URLs the page's `<link rel=canonical>` tags name before its `<body>` (a canonical in the body is not one, as
 * search engines read it), absolute against `base` (its query in the document's `encoding`), each once, in order.
 * More than one is a conflict the page made; `canonicalOf` takes the first.
 */
export function canonicalUrls(document: Document, base: string, encoding?: string): string[] {
  const urls: string[] = [];
  for (const el of elements(document)) {
    if (el.name === 'body') break;
    if (el.name !== 'link' || !el.attribs.href) continue;
    if (!(el.attribs.rel ?? '').toLowerCase().split(/\s+/).includes('canonical')) continue;
    const url = resolveUrl(el.attribs.href, base, encoding);
    if (url !== undefined && !urls.includes(url)) urls.push(url);
  }
  return urls;
}

/** The page's canonical URL: the first of `canonicalUrls`, what a crawl folds the page into. */
export function canonicalOf(document: Document, base: string, encoding?: string): string | undefined {
  return canonicalUrls(document, base, encoding)[0];
}
