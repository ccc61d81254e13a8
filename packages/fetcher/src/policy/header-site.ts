import { siteHostname } from '@crawlkit/options/site-host';
/**
 * Where a request's own headers (a session cookie, `Authorization`, a site's `X-Api-Key`) may go: the one rule of the
 * HTTP engine's redirects, the browser's subresources and a crawl's pages.
 */

/** A host name without a leading `www.`: `wiki.corp` and `www.wiki.corp` are one site. */
const siteOf = (url: URL) => siteHostname(url.hostname);

/** The port a URL reaches: its scheme's default when it names none. */
const portOf = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80');

/**
 * Whether headers meant for `from` may be sent to `to`: the same host (`www.` aside) on the same port, or moved from
 * `http:` to `https:` on its default port (a site upgrading itself); never from `https:` down to `http:`, where they
 * would cross the network in the clear.
 */
export function sameHeaderSite(from: URL, to: URL): boolean {
  if (siteOf(to) !== siteOf(from)) return false;
  if (to.protocol === from.protocol) return portOf(to) === portOf(from);
  return from.protocol === 'http:' && to.protocol === 'https:' && to.port === '';
}
