/**
 * Query parameters that carry a server session id, a new one a visit on sites that put the session in every link
 * (so the same page is a new URL each time it is linked): Java servlets' `jsessionid`, PHP's `PHPSESSID`, classic
 * ASP's `ASPSESSIONID…` (a prefix), ColdFusion's `CFID`/`CFTOKEN`, and forum software's own: phpBB's `sid` and
 * vBulletin's `s`, only when the value is a 32-digit hex MD5 (the only form those write). A `sid` or `s` of another
 * shape names a page or a store on too many sites. The crawl's de-duplication key (`@crawlkit/frontier`) and change
 * tracking's comparison rule (`@crawlkit/extractor`) both drop them.
 */
const SESSION_KEYS = new Set(['jsessionid', 'phpsessid', 'cfid', 'cftoken']);
const FORUM_SESSION_KEYS = new Set(['sid', 's']);
const MD5_HEX = /^[0-9a-f]{32}$/i;

/** Whether the query parameter `key=value` is a session id (see the module comment). */
export function isSessionParam(key: string, value: string): boolean {
  const k = key.toLowerCase();
  if (SESSION_KEYS.has(k) || k.startsWith('aspsessionid')) return true;
  return FORUM_SESSION_KEYS.has(k) && MD5_HEX.test(value);
}

/** A `;jsessionid=…` path parameter (servlet URL rewriting), with the parameters after it in the same segment. */
export const PATH_SESSION = /;jsessionid=[^/?#]*/gi;
