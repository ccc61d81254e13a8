/** A page's links as `map` takes them, read in an extraction worker (a page of thousands of links costs a parse). */
import { isAllowedByPolicy } from '@crawlkit/fetcher/analysis';
import { extractPage } from '@crawlkit/extractor';

import { cleanUrl, pageKey, patternFilter, siteFilter, type MapScope, type PageLinks } from './map-links.js';

/** Reads a page's title, description and links, and sorts its links by `scope`. */
export function pageLinks(page: { url: string; text: string; charset?: string }, scope: MapScope): PageLinks {
  // the links a crawl follows (`a[href]`, `area[href]`, `<link rel="next">`): a category paged by `rel="next"` alone
  // is mapped to its end; the `links` format stays `a[href]`
  const { metadata, discoveryLinks: links = [] } = extractPage(page.text, {
    url: page.url,
    ...(page.charset !== undefined ? { encoding: page.charset } : {}),
    onlyMainContent: false,
    formats: { discoveryLinks: true, metadata: true },
  });
  const inSite = siteFilter(scope);
  const admitted = patternFilter(scope);
  const listed = new Map<string, string>();
  const follow = new Set<string>();
  for (const link of links) {
    const url = cleanUrl(link, scope);
    if (!url || !inSite(url) || !admitted(link)) continue;
    follow.add(link);
    if (!isAllowedByPolicy(url, scope.policy)) continue;
    const key = pageKey(url, scope);
    if (!listed.has(key)) listed.set(key, url);
  }
  const { title, description } = metadata ?? {};
  return {
    ...(typeof title === 'string' ? { title } : {}),
    ...(typeof description === 'string' ? { description } : {}),
    listed: [...listed].map(([key, url]) => ({ url, key })),
    follow: [...follow],
  };
}
