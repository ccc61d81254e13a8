/**
 * `POST /v2/search`: the query against the sources asked (the local index of stored pages, the web provider), then,
 * with `scrapeOptions`, each result's document (from the page cache when fresh, fetched otherwise). The query's
 * `site:` operators are domain filters for the index.
 */
import { hostMatches, parseSearchQuery, searchHost, type SearchTerms } from '@crawlkit/store';

import type { Fetcher } from '@crawlkit/fetcher';
import { isAllowedByPolicy } from '@crawlkit/fetcher/analysis';
import { charged } from '../credits/charge.js';
import { pageCreditEstimate } from '../credits/estimate.js';
import type { Runtime } from '../runtime.js';
import { scrapePage } from '../scrape/run-scrape.js';
import { parseBody } from '../v2/parse.js';
import { threatProtectionRefusal } from '../v2/threat-protection.js';
import type { Document, ErrorResponse } from '../v2/types.js';
import { searchLocal, type LocalResult } from './local-source.js';
import { askProvider } from './providers/ask-provider.js';
import type { WebResult, WebSearchProvider, WebSearchQuery, WebSource } from './providers/provider.js';
import { searchRequestSchema, type SearchRequest, type SearchRequestInput, type SearchSource } from './request.js';
import { siteOperators, type SiteOperators } from './site-operators.js';
import type { SearchSetup } from './setup.js';
import { parseTimeFilter } from './time-filter.js';

export type SearchResult = (LocalResult | WebResult) & Partial<Document>;

export interface SearchResponse {
  success: true;
  data: Partial<Record<SearchSource, SearchResult[]>>;
  warning?: string;
  /** Credits of the search (2 per 10 results, as upstream bills) and of the documents scraped. */
  creditsUsed: number;
  id: string;
}

/** A search's own credits for `results` results: 2 per 10, as upstream bills (at least one ten). */
const searchCredits = (results: number) => 2 * Math.ceil(Math.max(results, 1) / 10);

/**
 * The credits a search may cost, reserved under a credit limit before it starts: its own for `limit` results from
 * each source, and with `scrapeOptions` each of those pages' estimate.
 */
function searchEstimate(request: SearchRequest, fetcher: Pick<Fetcher, 'stealthProxies'>): number {
  const results = request.limit * Math.max(new Set(request.sources).size, 1);
  const options = request.scrapeOptions;
  const pages = options ? results * pageCreditEstimate({ ...options, zeroDataRetention: false }, fetcher) : 0;
  return searchCredits(results) + pages;
}

/** Whom a search is for: the caller's credit limit and tenant (`CallOptions`). */
export interface SearchCall {
  creditLimit?: number | undefined;
  tenant?: string | undefined;
}

export async function runSearch(
  rt: Runtime,
  setup: SearchSetup,
  body: SearchRequestInput,
  callerSignal?: AbortSignal,
  call: SearchCall = {},
): Promise<SearchResponse | ErrorResponse> {
  const parsed = parseBody(searchRequestSchema, body);
  if (!parsed.ok) return parsed.error;
  const sites = siteOperators(parsed.value.query);
  if (!sites.words && sites.include.length + sites.exclude.length > 0) {
    return {
      success: false,
      code: 'BAD_REQUEST',
      error: 'The query has only site: filters. Add the words to look for (`pricing site:example.com`).',
    };
  }
  const request = withSites(parsed.value, sites);
  const query = parseSearchQuery(sites.words);
  if (!query.ok) return { success: false, code: 'BAD_REQUEST', error: query.error };
  const endsAt = Date.now() + request.timeout;
  const deadline = AbortSignal.timeout(request.timeout);
  const signal = callerSignal ? AbortSignal.any([callerSignal, deadline]) : deadline;
  try {
    return await charged(
      rt.ctx.store,
      call,
      searchEstimate(request, rt.ctx.fetcher),
      () => search(rt, setup, request, query.terms, signal, endsAt, call.tenant),
      (answer) => answer.creditsUsed,
      rt.bus.warning,
    );
  } catch (error) {
    if (deadline.aborted && !callerSignal?.aborted) {
      return {
        success: false,
        code: 'SEARCH_TIMEOUT',
        error: `The search did not finish within its timeout of ${request.timeout} ms.`,
      };
    }
    throw error;
  }
}

async function search(
  rt: Runtime,
  setup: SearchSetup,
  request: SearchRequest,
  terms: SearchTerms,
  signal: AbortSignal,
  endsAt: number,
  tenant: string | undefined,
): Promise<SearchResponse> {
  const warnings: string[] = [];
  const data: SearchResponse['data'] = {};
  const sources = [...new Set(request.sources)].filter((s): s is SearchSource => s !== 'alexandria');
  if (sources.length < request.sources.length && sources.length === 0) sources.push('web');
  let fromStore = false;
  /** The request's options the provider did not apply to some source. */
  const unapplied = new Set<string>();
  for (const source of sources) {
    if (source === 'local' || (source === 'web' && !setup.provider)) {
      fromStore = true;
      data[source] = await fromIndex(rt, setup, request, terms, signal, warnings);
    } else if (setup.provider?.sources.includes(source)) {
      data[source] = await fromProvider(setup.provider, request, source, signal, unapplied);
    } else {
      data[source] = [];
      warnings.push(
        setup.provider
          ? `The ${setup.provider.name} search provider has no ${source} results.`
          : `No web search provider is configured, so there are no ${source} results (\`web\` searches the pages ` +
              'crawlkit stored). Configure one: `crawlkit serve --searxng-url` or `search.provider`.',
      );
    }
  }
  if (unapplied.size) {
    const names = [...unapplied].map((name) => `\`${name}\``).join(', ');
    warnings.push(
      `The ${setup.provider!.name} search provider does not apply ${names}: its results are not narrowed by ` +
        `${unapplied.size > 1 ? 'them' : 'it'}.`,
    );
  }
  if (fromStore && (request.location !== undefined || request.country !== undefined)) {
    warnings.push(
      '`location` and `country` go to a web search provider only: the stored pages searched are not narrowed by them.',
    );
  }
  if (request.categories?.length)
    warnings.push('`categories` are not supported: the results are not narrowed by them.');
  if (request.filter) {
    warnings.push(
      '`filter` is not read: narrow the results with includeDomains, excludeDomains, site: in the query, or tbs.',
    );
  }
  const count = Object.values(data).reduce((n, results) => n + results.length, 0);
  let creditsUsed = searchCredits(count);
  rt.bus.charge(creditsUsed, tenant);
  if (request.scrapeOptions) creditsUsed += await scrapeResults(rt, request, data, signal, endsAt, warnings, tenant);
  signal.throwIfAborted();
  const response: SearchResponse = { success: true, data, creditsUsed, id: crypto.randomUUID() };
  if (warnings.length) response.warning = warnings.join(' ');
  return response;
}

async function fromIndex(
  rt: Runtime,
  setup: SearchSetup,
  request: SearchRequest,
  terms: SearchTerms,
  signal: AbortSignal,
  warnings: string[],
): Promise<LocalResult[]> {
  const index = rt.ctx.store.search;
  if (!index) {
    warnings.push(`The store (${rt.ctx.store.kind}) keeps no search index, so no stored page is searched.`);
    return [];
  }
  // An expired job's results are gone from every read at once, though the sweep deletes them later.
  await rt.jobs.deleteExpired();
  const range = request.tbs ? parseTimeFilter(request.tbs, Date.now())! : {};
  const results = await searchLocal(
    index,
    {
      terms,
      limit: request.limit,
      highlights: request.highlights,
      allowed: (url) => isAllowedByPolicy(url, rt.ctx.fetcher.urlPolicy),
      ...(request.includeDomains ? { includeHosts: request.includeDomains } : {}),
      ...(request.excludeDomains ? { excludeHosts: request.excludeDomains } : {}),
      ...range,
    },
    setup.rerank?.(request.query, signal),
  );
  // An empty answer from an empty index is not "nothing matched": say what fills it.
  if (results.length === 0 && !warnings.includes(EMPTY_INDEX) && (await index.count()) === 0)
    warnings.push(EMPTY_INDEX);
  return results;
}

const EMPTY_INDEX =
  'No page is stored in this store yet, so there is nothing to search: crawl, batch scrape or scrape pages first ' +
  '(with the same store), or configure a web search provider.';

async function fromProvider(
  provider: WebSearchProvider,
  request: SearchRequest,
  source: WebSource,
  signal: AbortSignal,
  unapplied: Set<string>,
): Promise<WebResult[]> {
  const query: WebSearchQuery = {
    query: request.query,
    source,
    limit: request.limit,
    signal,
    ...(request.includeDomains ? { includeDomains: request.includeDomains } : {}),
    ...(request.excludeDomains ? { excludeDomains: request.excludeDomains } : {}),
    ...(request.tbs ? { tbs: request.tbs } : {}),
    ...(request.location ? { location: request.location } : {}),
    ...(request.country ? { country: request.country } : {}),
  };
  for (const name of provider.unapplied?.(query) ?? []) unapplied.add(name);
  const results = await askProvider(provider, query);
  // Engines may ignore `site:`: the domain filters hold whatever the provider did.
  return results
    .filter((r) => {
      const host = searchHost(r.url);
      if (!host) return !request.ignoreInvalidURLs;
      if (request.includeDomains?.length && !hostMatches(host, request.includeDomains)) return false;
      return !(request.excludeDomains?.length && hostMatches(host, request.excludeDomains));
    })
    .slice(0, request.limit)
    .map((r, i) => ({ ...r, position: i + 1 }));
}

/**
 * The time a search keeps to answer after its scrapes: the results' scrapes stop this long before the search's
 * `timeout`, so a result whose page is slow is listed without its document instead of the search failing whole.
 */
function answerReserveMs(timeout: number): number {
  return Math.min(1_000, Math.floor(timeout / 10));
}

/**
 * Scrapes every result with the request's `scrapeOptions`, in the engine's slots, until a little before the search's
 * deadline (`endsAt`); returns the credits. A result whose scrape fails or runs out of time keeps its place, without
 * a document, and the answer's warning counts it.
 */
async function scrapeResults(
  rt: Runtime,
  request: SearchRequest,
  data: SearchResponse['data'],
  searchSignal: AbortSignal,
  endsAt: number,
  warnings: string[],
  tenant: string | undefined,
): Promise<number> {
  const options = request.scrapeOptions!;
  const budget = Math.max(0, endsAt - Date.now() - answerReserveMs(request.timeout));
  const signal = AbortSignal.any([searchSignal, AbortSignal.timeout(budget)]);
  let credits = 0;
  let failed = 0;
  await Promise.all(
    Object.values(data).flatMap((results) =>
      results.map(async (result, i) => {
        if (!result.url) return;
        const failedWith = (statusCode: number, code: string | undefined, message: string) => {
          failed++;
          results[i] = { ...result, metadata: failedMetadata(result.url, statusCode, code, message) };
        };
        const refused = threatProtectionRefusal(result.url, options.threatProtection);
        if (refused) return failedWith(403, 'URL_BLOCKED', `${refused}.`);
        const outcome = await rt.queue
          .add(
            () =>
              scrapePage(
                rt.ctx,
                { ...options, url: result.url },
                { sourceURL: result.url, zeroDataRetention: false, signal },
              ),
            { signal, tenant },
          )
          .catch((error: unknown) => {
            if (searchSignal.aborted || !signal.aborted) throw error;
            return undefined; // this result ran out of the search's time: listed without its document
          });
        if (!outcome) {
          const message = `The search's \`timeout\` (${request.timeout} ms) ran out before this result was scraped.`;
          return failedWith(408, 'SCRAPE_TIMEOUT', message);
        }
        if (!outcome.success) return failedWith(outcome.status, outcome.error.code, outcome.error.error);
        rt.bus.page(undefined, outcome.document, tenant);
        credits += outcome.credits;
        results[i] = { ...result, ...outcome.document };
      }),
    ),
  );
  if (failed) {
    warnings.push(
      `${failed} result(s) could not be scraped; they are listed without their document, ` +
        'with why in their `metadata.error`.',
    );
  }
  return credits;
}

/**
 * The `metadata` of a result whose scrape failed: v2's `error` says why, `statusCode` is the status `/v2/scrape`
 * would have answered for it, and `errorCode` its code (crawlkit's own).
 */
function failedMetadata(
  url: string,
  statusCode: number,
  code: string | undefined,
  error: string,
): Document['metadata'] {
  return { sourceURL: url, url, statusCode, error, ...(code ? { errorCode: code } : {}) };
}

/** The request with the query's `site:` operators added to its domain filters (a provider reads them in the query). */
function withSites(request: SearchRequest, sites: SiteOperators): SearchRequest {
  const merged = (domains: string[] | undefined, more: string[]) =>
    more.length ? [...new Set([...(domains ?? []), ...more])] : domains;
  const includeDomains = merged(request.includeDomains, sites.include);
  const excludeDomains = merged(request.excludeDomains, sites.exclude);
  return {
    ...request,
    ...(includeDomains ? { includeDomains } : {}),
    ...(excludeDomains ? { excludeDomains } : {}),
  };
}
