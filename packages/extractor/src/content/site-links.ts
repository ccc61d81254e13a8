import { siteHostname } from '@crawlkit/options/site-host';
// Addresses of a page's links, read as a browser reads them: against the document's base (its first `<base href>`,
// else the page's own address). Rules that ask where a link goes (another story of this site, another site, the
// site's sign-in page) read the page's address once (`pageAddress`) and resolve through it.

/** Where a page is and what its links resolve against. */
export interface PageAddress {
  /** The page's own address (after redirects): the story it names, its section. */
  page: URL;
  /** The document's base: its first `<base href>`, else the page's address. */
  base: URL;
}

/** The address of a page at `url` whose document's base is `base`; null when `url` is not a web address. */
export function pageAddress(url: string, base: string): PageAddress | null {
  const page = webUrl(url, undefined);
  return page ? { page, base: webUrl(base, page) ?? page } : null;
}

/** `href` resolved against `base`, when it is a web address (http or https); null otherwise or when it is bad. */
export function webUrl(href: string, base: string | URL | undefined): URL | null {
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}

/** Where a link of the page goes: `href` resolved against the document's base. */
export function linkUrl(href: string, address: PageAddress): URL | null {
  return webUrl(href, address.base);
}

/** The site an address belongs to: its host, lower case, without `www.`. */
export function siteHost(url: URL): string {
  return siteHostname(url.hostname);
}

/**
 * Whether `url` is a page of the page's own site: the page's host or its base's (a copy served from a mobile or
 * mirror host takes the site's host as its base, and its relative links go there).
 */
export function isOwnSite(url: URL, address: PageAddress): boolean {
  const host = siteHost(url);
  return host === siteHost(address.page) || host === siteHost(address.base);
}
