/**
 * Whether a URL fragment is a client-side route: `#/path`, `#!path` (hash-bang) or `#segment/path`. A server never
 * sees the fragment, so it sends the same shell for every route, but each route is a page of the app: the crawl's
 * link discovery (`@crawlkit/extractor`) and de-duplication key (`@crawlkit/frontier`) keep such a fragment, and the
 * fetcher's render judge (`@crawlkit/fetcher`) renders such URLs. A plain `#section` is a place in its page.
 */
export function isRouteFragment(hash: string): boolean {
  return /^#(?:!|\/|[\w.~-]+\/)/.test(hash);
}
