// Addresses of a page's links, read against the page's own: rules that ask where a link goes (another story of this
// site, another site, the site's sign-in page).

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

/** The site an address belongs to: its host, lower case, without `www.`. */
export function siteHost(url: URL): string {
  return url.hostname.toLowerCase().replace(/^www\./, '');
}
