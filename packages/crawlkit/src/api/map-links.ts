/**
 * Which URLs `map` lists and follows, by the rules of its request: plain functions of plain data, so that the links
 * of a page are read and sorted in an extraction worker (a page of thousands of links costs as much as a parse).
 */
import type { UrlPolicy } from '@crawlkit/fetcher/analysis';
import { createPathPatterns, inSeedScope, normalizeUrl } from '@crawlkit/frontier';
import { siteHostname } from '@crawlkit/options/site-host';
import { getDomain } from 'tldts';

import type { MapRequest } from '../v2/jobs.js';

/** The parts of a map request that decide which URLs belong to the map. */
export type MapScope = Pick<
  MapRequest,
  | 'ignoreQueryParameters'
  | 'includeSubdomains'
  | 'filterByPath'
  | 'allowExternalLinks'
  | 'includePaths'
  | 'excludePaths'
  | 'regexOnFullURL'
> & {
  /** The URL mapped, after its redirects: its site and path are the map's. */
  input: string;
  /**
   * The URL as asked, before its redirects: on the site it led to, its path is the map's as well (a site's root
   * redirected to `/docs/intro` maps the site, as a crawl does). Absent: `input` alone.
   */
  requested?: string;
  /** The engine's URL policy: a URL it refuses is not listed. */
  policy: UrlPolicy;
};

/** A page's part of the map: its title and description, and its links. */
export interface PageLinks {
  title?: string;
  description?: string;
  /** Links to list: cleaned (`cleanUrl`), of the site, allowed by the policy, one per `key` (the first seen). */
  listed: { url: string; key: string }[];
  /** Links to follow, as written in the page: every link of the site, listed or not, each once. */
  follow: string[];
}

/** The URL as map lists it: http(s) only, no fragment, no query when ignored, no trailing slash. */
export function cleanUrl(raw: string, scope: Pick<MapScope, 'ignoreQueryParameters'>): string | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.hash = '';
  if (scope.ignoreQueryParameters) url.search = '';
  let out = url.toString();
  if (out.endsWith('/')) out = out.slice(0, -1);
  return out;
}

/**
 * Keeps URLs of the same site (registrable domain, `www.` ignored) and, when asked, of the same host and of the input's
 * scope as a crawl from it has (`inSeedScope`): `/docs` keeps `/docs` and `/docs/…`, `/docs/index.html` keeps
 * `/docs/…`. A listed URL has lost its trailing slash (`cleanUrl`), so `/docs` is also tried as `/docs/`. A redirect
 * on the same host adds its target's path to the asked one, as a crawl's seed redirect does (`rebase`): `/` redirected
 * to `/docs/intro` keeps the whole site, `/latest` redirected to `/v2/` keeps both; to another host, its path alone.
 */
export function siteFilter(scope: MapScope): (url: string) => boolean {
  const input = new URL(scope.input);
  const domain = getDomain(input.hostname) ?? siteHostname(input.hostname);
  const host = siteHostname(input.hostname);
  const paths = [input.pathname];
  if (scope.requested !== undefined) {
    const requested = new URL(scope.requested);
    if (siteHostname(requested.hostname) === host && requested.pathname !== input.pathname)
      paths.push(requested.pathname);
  }
  const byPath = scope.filterByPath && !scope.allowExternalLinks && !paths.includes('/');
  const inScope = (path: string) => paths.some((scopePath) => inSeedScope(scopePath, path));
  return (url) => {
    const u = new URL(url);
    if ((getDomain(u.hostname) ?? siteHostname(u.hostname)) !== domain) return false;
    if (!scope.includeSubdomains && siteHostname(u.hostname) !== host) return false;
    if (byPath && !inScope(u.pathname) && !inScope(`${u.pathname}/`)) return false;
    return true;
  };
}

/**
 * Whether `includePaths`/`excludePaths` admit a URL as it was found (before `cleanUrl` drops its trailing slash and
 * query), as they admit a link in a crawl. Without patterns every URL passes, unparsed.
 */
export function patternFilter(scope: MapScope): (raw: string) => boolean {
  if (!scope.includePaths?.length && !scope.excludePaths?.length) return () => true;
  const patterns = createPathPatterns(scope);
  return (raw) => {
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      return false;
    }
    url.hash = '';
    return !patterns.excluded(url) && patterns.included(url);
  };
}

/** One entry per page: `www.`, scheme, trailing-slash and index variants share a key. */
export function pageKey(url: string, scope: Pick<MapScope, 'ignoreQueryParameters'>): string {
  return normalizeUrl(url, { ignoreQueryParameters: scope.ignoreQueryParameters });
}
