import { siteHostname } from '@crawlkit/options/site-host';
/** A host and its subdomains match a domain filter. */
export function hostMatches(host: string, domains: readonly string[]): boolean {
  return domains.some((d) => host === d || host.endsWith(`.${d}`));
}

/** The host an entry is filtered by: its URL's, lower-case, without `www.`. */
export function searchHost(url: string): string {
  try {
    return siteHostname(new URL(url).hostname);
  } catch {
    return '';
  }
}
