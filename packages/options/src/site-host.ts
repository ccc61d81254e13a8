/**
 * The site a host name belongs to, as every same-site rule compares it: lower case, without a leading `www.`
 * (`www.example.com` and `example.com` are one site to a crawl's scope, a sitemap's URLs, a map's links, the headers a
 * crawl sends, the search filters and the extractor's own-site links). Subdomains other than `www` stay apart.
 */
export function siteHostname(hostname: string): string {
  return hostname.toLowerCase().replace(/^www\./, '');
}
