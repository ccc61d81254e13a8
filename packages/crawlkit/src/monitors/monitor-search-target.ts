/**
 * A monitor's `search` target (the clients' `MonitorSearchTarget`) as it is kept (its queries, filters and the scrape
 * options of its results' pages), shown back, checked when the monitor is created, and asked of the engine's search.
 */
import { parseSearchQuery } from '@crawlkit/store';
import type { z } from 'zod';

import { searchRequestSchema, type SearchRequestInput } from '../search/request.js';
import { scrapeOptionsSchema } from '../v2/scrape-options.js';
import type { MonitorTargetInput } from './monitor-request.js';
import type { MonitorSearch } from './monitor-targets.js';

type SearchTargetInput = Extract<MonitorTargetInput, { type: 'search' }>;

/** Results kept per query when the target gives no `maxResults`. */
const DEFAULT_MAX_RESULTS = 10;

/** A check's search has this long (each query), as a search request's `timeout`. */
const SEARCH_TIMEOUT_MS = 30_000;

/**
 * The search's time filter of a `searchWindow`: its narrowest is an hour, so the shorter windows search the last hour.
 */
const WINDOW_TBS: Record<NonNullable<MonitorSearch['searchWindow']>, string> = {
  '5m': 'qdr:h',
  '15m': 'qdr:h',
  '1h': 'qdr:h',
  '6h': 'qdr:h6',
  '24h': 'qdr:d',
  '7d': 'qdr:w',
};

/** What a search target keeps: `scrapeOptions` with the monitor's diff format already added. */
export function searchTargetOf(target: SearchTargetInput, scrapeOptions: Record<string, unknown>): MonitorSearch {
  return {
    queries: target.queries,
    maxResults: target.maxResults ?? DEFAULT_MAX_RESULTS,
    ...(target.searchWindow !== undefined ? { searchWindow: target.searchWindow } : {}),
    ...(target.includeDomains !== undefined ? { includeDomains: target.includeDomains } : {}),
    ...(target.excludeDomains !== undefined ? { excludeDomains: target.excludeDomains } : {}),
    scrapeOptions,
  };
}

/** The target as the API shows it, `scrapeOptions` as the client gave them. */
export function searchTargetView(search: MonitorSearch, scrapeOptions: Record<string, unknown> | undefined) {
  const { scrapeOptions: _kept, ...rest } = search;
  return { type: 'search' as const, ...rest, ...(scrapeOptions ? { scrapeOptions } : {}) };
}

/** The search request of one query of the target. */
export function searchBody(search: MonitorSearch, query: string): SearchRequestInput {
  return {
    query,
    limit: search.maxResults,
    sources: ['web'],
    highlights: false,
    timeout: SEARCH_TIMEOUT_MS,
    origin: 'monitor',
    ...(search.searchWindow !== undefined ? { tbs: WINDOW_TBS[search.searchWindow] } : {}),
    ...(search.includeDomains !== undefined ? { includeDomains: search.includeDomains } : {}),
    ...(search.excludeDomains !== undefined ? { excludeDomains: search.excludeDomains } : {}),
  };
}

/**
 * What a monitor with search targets is told when the engine has no web search provider: its checks search the pages
 * crawlkit stored, as `POST /v2/search` does.
 */
export function searchWarning(hasProvider: boolean, targets: readonly MonitorTargetInput[]): string | undefined {
  if (hasProvider || !targets.some((target) => target.type === 'search')) return undefined;
  return (
    "No web search provider is configured: the checks of this monitor's search targets search the pages crawlkit " +
    'stored (its local index). Configure one to search the web (`crawlkit serve --searxng-url` or ' +
    '`--brave-api-key`, or `search.provider`).'
  );
}

/** `targets[0].queries[1]`. */
const where = (path: PropertyKey[]) =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');

/** What the search or the scrape of its pages would refuse, at the target's own paths (`targets[2].queries[0]`). */
export function searchTargetIssues(target: SearchTargetInput, index: number): z.core.$ZodIssue[] {
  const issues: z.core.$ZodIssue[] = [];
  const at = (issue: z.core.$ZodIssue, path: PropertyKey[]): z.core.$ZodIssue => ({
    ...issue,
    path: ['targets', index, ...path],
    // A custom message is told alone (not after its path): it names where.
    message: issue.code === 'custom' ? `${where(['targets', index, ...path])}: ${issue.message}` : issue.message,
  });
  const search = searchTargetOf(target, {});
  target.queries.forEach((query, q) => {
    const parsed = searchRequestSchema.safeParse(searchBody(search, query));
    for (const issue of parsed.success ? [] : parsed.error.issues) {
      // The filters are the same for every query: told once.
      if (q > 0 && issue.path[0] !== 'query') continue;
      const path =
        issue.path[0] === 'query' ? ['queries', q] : issue.path.map((p) => (p === 'limit' ? 'maxResults' : p));
      issues.push(at(issue, path));
    }
    const terms = parseSearchQuery(query);
    if (!terms.ok) issues.push(at({ code: 'custom', path: [], message: terms.error, input: query }, ['queries', q]));
  });
  const scrape = scrapeOptionsSchema.safeParse(target.scrapeOptions ?? {});
  for (const issue of scrape.success ? [] : scrape.error.issues)
    issues.push(at(issue, ['scrapeOptions', ...issue.path]));
  return issues;
}
