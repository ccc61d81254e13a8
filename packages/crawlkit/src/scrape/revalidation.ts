/**
 * Conditional refetches of cached pages, with the HTTP caching rules of `http-cache-semantics`: which responses keep
 * validators (`ETag`, `Last-Modified`; never a `no-store` one), which headers a refetch sends (`If-None-Match`,
 * `If-Modified-Since`), and whether a `304 Not Modified` confirms the copy kept.
 */
import { withoutFragment } from '@crawlkit/fetcher';
import CachePolicy from 'http-cache-semantics';

import type { FetchedPage } from './fetched-page.js';

/** What the page cache keeps of a response's caching rules (`CachePolicy.toObject()`), in the entry's head. */
export type StoredCachePolicy = CachePolicy.CachePolicyObject;

/** The request every policy is made for: the page's GET as crawlkit sends it (its own headers are the engine's). */
function policyRequest(url: string): CachePolicy.Request {
  let path = '/';
  let host = '';
  try {
    const parsed = new URL(url);
    path = parsed.pathname + parsed.search;
    host = parsed.host;
  } catch {
    // an unparsable URL is never fetched; its policy matches nothing else
  }
  return { url: path, method: 'GET', headers: { host } };
}

/**
 * The caching rules of a page just fetched, when a later refetch can be conditional: a page served over plain HTTP
 * (a 304 of the HTML says nothing of what a browser rendered) whose response carries a validator and may be stored
 * by a private cache. `undefined` otherwise.
 */
export function cachePolicyOf(
  page: Pick<FetchedPage, 'engine' | 'status' | 'headers' | 'url'>,
): StoredCachePolicy | undefined {
  if (page.engine !== 'http' || page.status !== 200) return undefined;
  if (page.headers.etag === undefined && page.headers['last-modified'] === undefined) return undefined;
  const policy = new CachePolicy(
    policyRequest(page.url),
    { status: page.status, headers: page.headers },
    { shared: false },
  );
  return policy.storable() ? policy.toObject() : undefined;
}

/** The validators a refetch of the page sends (`If-None-Match`, `If-Modified-Since`); none when it has none. */
export function conditionalHeaders(stored: StoredCachePolicy, url: string): Record<string, string> {
  const policy = CachePolicy.fromObject(stored);
  const headers = policy.revalidationHeaders(policyRequest(url));
  const conditional: Record<string, string> = {};
  for (const name of ['if-none-match', 'if-modified-since'] as const) {
    const value = headers[name];
    if (typeof value === 'string') conditional[name] = value;
  }
  return conditional;
}

/**
 * What a `304 Not Modified` means for the kept copy fetched at `url`: `confirmed` when it answers from that URL and
 * its validators match the copy's (then `policy` is the copy's rules refreshed with the 304's headers), else the copy
 * may not be served (a strong `ETag` of another version, or another page's 304).
 */
export function afterNotModified(
  stored: StoredCachePolicy,
  url: string,
  response: { status: number; headers: Record<string, string>; url: string },
): { confirmed: true; policy: StoredCachePolicy } | { confirmed: false } {
  // The validators follow a redirect (a redirect that stays leads to the copy's own URL), so a 304 from another URL
  // is that page's answer to validators that are not its own: a static site's files share one `Last-Modified`, and
  // a page moved since the copy answered `If-Modified-Since` with 304, the moved page's old copy served as confirmed.
  if (withoutFragment(response.url) !== withoutFragment(url)) return { confirmed: false };
  // The 304 names the copy's own validators: the rules' match is certain (the same strong or weak `ETag`, or with
  // none the same `Last-Modified`), and the refreshed policy would carry the same validators, which is all a caller
  // compares (`sameValidators`): the copy's policy answers as it is, without rebuilding the rules' object twice.
  if (response.status === 304 && namesValidatorsOf(stored, response.headers))
    return { confirmed: true, policy: stored };
  const policy = CachePolicy.fromObject(stored);
  const revalidated = policy.revalidatedPolicy(policyRequest(url), response);
  if (revalidated.matches) return { confirmed: true, policy: revalidated.policy.toObject() };
  // A 304 without any validator of its own still answers the conditional request it was sent: the copy stands, its
  // validators kept (the 304's policy would have none to send next time).
  const validators = response.headers.etag !== undefined || response.headers['last-modified'] !== undefined;
  return validators ? { confirmed: false } : { confirmed: true, policy: stored };
}

/** Whether the response's `ETag` and `Last-Modified` are the stored copy's, at least one of them present. */
function namesValidatorsOf(stored: StoredCachePolicy, headers: Record<string, string>): boolean {
  const { etag, 'last-modified': lastModified } = stored.resh as Record<string, string | undefined>;
  if (etag === undefined && lastModified === undefined) return false;
  return headers.etag === etag && headers['last-modified'] === lastModified;
}

/**
 * Whether two policies of a page carry the same validators (`ETag`, `Last-Modified`): a 304 that refreshes nothing
 * else that crawlkit reads leaves the stored copy as it is, so confirming it only needs its new `cachedAt`.
 */
export function sameValidators(a: StoredCachePolicy, b: StoredCachePolicy): boolean {
  return a.resh.etag === b.resh.etag && a.resh['last-modified'] === b.resh['last-modified'];
}
