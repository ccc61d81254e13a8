import type { PageScrapeRequest } from '../scrape/types.js';

type PageOptions = Omit<PageScrapeRequest, 'url'>;

/** A host name without a leading `www.`: `wiki.corp` and `www.wiki.corp` are one site, as the crawl's rules say. */
const siteOf = (hostname: string) => hostname.toLowerCase().replace(/^www\./, '');

/** The port a URL reaches, its scheme's default when it names none. */
const portOf = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80');

/**
 * Whether a page of the crawl is the seed's site for its credentials: the same host (`www.` aside), reached on the
 * same port or on the default port of the scheme it moved to from `http:` to `https:` (a site upgrading itself), never
 * from `https:` down to `http:`, where the token would cross the network in the clear.
 */
function sameSite(seed: URL, page: URL): boolean {
  if (siteOf(page.hostname) !== siteOf(seed.hostname)) return false;
  if (page.protocol === seed.protocol) return portOf(page) === portOf(seed);
  return seed.protocol === 'http:' && page.protocol === 'https:' && page.port === '';
}

/**
 * The page options of each URL of a crawl: its `scrapeOptions.headers` (a session cookie, `Authorization`) go to the
 * pages of the seed's site only (`sameSite`), as the browser sends them to the page's host only. A page elsewhere (an
 * external link, a subdomain, another port, `http:` under an `https:` seed, a seed that redirected away) is scraped
 * without them, the user agent aside: the crawl's credentials are for the site the user named, not for every host
 * its links lead to. The seed as submitted decides, not where it redirected: the HTTP engine drops credentials on
 * such a redirect too.
 */
export function crawlPageOptions(seedUrl: string, options: PageOptions): (url: string) => PageOptions {
  const headers = options.headers;
  if (!headers || !Object.keys(headers).length) return () => options;
  const seed = new URL(seedUrl);
  const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => /^user-agent$/i.test(name)));
  const elsewhere: PageOptions = { ...options, headers: kept };
  if (!Object.keys(kept).length) delete elsewhere.headers;
  return (url) => {
    try {
      return sameSite(seed, new URL(url)) ? options : elsewhere;
    } catch {
      return elsewhere;
    }
  };
}

/**
 * Gives a link of the seed's origin the user name and password of the seed's URL (`http://user:pass@wiki/`), as a
 * browser keeps them for the site it signed in to: the HTTP engine answers a page's URL without them, so its links
 * came without them and every page after the seed was a 401. Only the seed's exact origin (scheme, host, port): a
 * Basic password is for the server that asked for it. A link that names its own user info keeps it.
 */
export function seedCredentials(seedUrl: string): (link: URL) => void {
  const seed = new URL(seedUrl);
  if (!seed.username && !seed.password) return () => undefined;
  return (link) => {
    if (link.username || link.password || link.origin !== seed.origin) return;
    link.username = seed.username;
    link.password = seed.password;
  };
}
