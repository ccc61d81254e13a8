/**
 * `site:host` and `-site:host` in a query, as search engines read them and as firecrawl-mcp's tool description tells
 * agents to write them: for the local index they are domain filters, and the rest of the query is the words to look
 * for. A web provider gets the query as it was written.
 */
import { isDomain, normalizeDomain } from './request.js';

export interface SiteOperators {
  /** The query without its `site:` operators. */
  words: string;
  /** Domains of `site:host`: a result is on one of them (or a subdomain). */
  include: string[];
  /** Domains of `-site:host`: no result is on them. */
  exclude: string[];
}

const SITE = /(^|\s)(-?)site:(\S+)/gi;

export function siteOperators(query: string): SiteOperators {
  const include: string[] = [];
  const exclude: string[] = [];
  const words = query.replace(SITE, (operator: string, space: string, minus: string, host: string) => {
    const domain = normalizeDomain(host);
    if (!isDomain(domain)) return operator;
    (minus ? exclude : include).push(domain);
    return space;
  });
  return { words: words.trim(), include, exclude };
}
