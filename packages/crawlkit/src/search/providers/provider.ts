/** A web search provider the operator runs or pays for: what `sources: ['web' | 'news' | 'images']` ask. */
import { CrawlkitError } from '../../errors.js';

export type WebSource = 'web' | 'news' | 'images';

export interface WebSearchQuery {
  query: string;
  source: WebSource;
  limit: number;
  includeDomains?: string[];
  excludeDomains?: string[];
  /** Upstream's `tbs` (`qdr:d`, ...), already checked. */
  tbs?: string;
  location?: string;
  /** ISO 3166-1 alpha-2. */
  country?: string;
  signal: AbortSignal;
}

/** One result as upstream returns it (web: url/title/description; news adds date; images imageUrl). */
export interface WebResult {
  url: string;
  title?: string;
  description?: string;
  date?: string;
  imageUrl?: string;
  imageWidth?: number;
  imageHeight?: number;
  /** 1-based rank in its source's list (set by the search, not by providers). */
  position?: number;
}

export interface WebSearchProvider {
  /** `searxng`, `brave`. */
  readonly name: string;
  /** The sources it answers. */
  readonly sources: readonly WebSource[];
  search(query: WebSearchQuery): Promise<WebResult[]>;
}

/**
 * A provider's JSON answer to a GET. The URL is the operator's (flags, environment or config file), never a
 * caller's, so it is not under the scrape's URL policy: a SearXNG on loopback is the usual set-up.
 */
export async function providerJson(
  name: string,
  url: URL,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json', ...headers }, signal });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new CrawlkitError(
      'SEARCH_PROVIDER_FAILED',
      `The ${name} search provider at ${url.origin} cannot be reached.`,
      {
        cause: error,
      },
    );
  }
  if (!response.ok) {
    const hint = response.status === 403 && name === 'searxng' ? ' (is `json` listed in its `search.formats`?)' : '';
    throw new CrawlkitError(
      'SEARCH_PROVIDER_FAILED',
      `The ${name} search provider answered HTTP ${response.status}${hint}.`,
    );
  }
  try {
    return await response.json();
  } catch (error) {
    throw new CrawlkitError(
      'SEARCH_PROVIDER_FAILED',
      `The ${name} search provider answered something that is not JSON.`,
      {
        cause: error,
      },
    );
  }
}

/** The query with upstream's domain filters as `site:` operators, which SearXNG's and Brave's engines read. */
export function withSites(query: WebSearchQuery): string {
  const include = query.includeDomains?.map((d) => `site:${d}`) ?? [];
  const exclude = query.excludeDomains?.map((d) => `-site:${d}`) ?? [];
  const sites = include.length > 1 ? [`(${include.join(' OR ')})`] : include;
  return [query.query, ...sites, ...exclude].join(' ');
}
