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
  /**
   * The options of `query` it does not apply (`location`, `country`, `tbs`), named as a search request names them: the
   * answer's `warning` then says its results are not narrowed by them.
   * @default none: every option is taken as applied
   */
  unapplied?(query: WebSearchQuery): string[];
}

/**
 * The unit of a `tbs` that is one whole period (`qdr:d`, `qdr:w1`), the only kind the providers' time filters say;
 * undefined for any other (`qdr:d3`, an hour, a `cdr:` range): mapped to the unit, those would narrow the results
 * to the wrong time.
 */
export function wholePeriod(tbs: string | undefined): 'd' | 'w' | 'm' | 'y' | undefined {
  return /^qdr:([dwmy])1?$/.exec(tbs?.trim() ?? '')?.[1] as 'd' | 'w' | 'm' | 'y' | undefined;
}

/** The options of `query` outside what a provider `applies`, for its `unapplied`. */
export function unappliedOptions(
  query: WebSearchQuery,
  applies: { location?: boolean; country?: boolean; tbs?: (tbs: string) => boolean },
): string[] {
  const names: string[] = [];
  if (query.location !== undefined && !applies.location) names.push('location');
  if (query.country !== undefined && !applies.country) names.push('country');
  if (query.tbs !== undefined && !applies.tbs?.(query.tbs)) names.push('tbs');
  return names;
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
