import { sameHeaderSite } from '@crawlkit/fetcher';

import type { PageScrapeRequest } from '../scrape/types.js';

type PageOptions = Omit<PageScrapeRequest, 'url'>;

/**
 * The page options of each URL of a crawl: its `scrapeOptions.headers` (a session cookie, `Authorization`) go to the
 * pages of the seed's site only (`sameHeaderSite`), as the browser sends them to the page's site only. A page
 * elsewhere (an external link, a subdomain, another port, `http:` under an `https:` seed, a seed that redirected away)
 * is scraped without them, the user agent aside: the crawl's credentials are for the site the user named, not for
 * every host its links lead to. The seed as submitted decides, not where it redirected: the HTTP engine drops
 * credentials on such a redirect too.
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
      return sameHeaderSite(seed, new URL(url)) ? options : elsewhere;
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
