import type { FetchResult } from '@crawlkit/fetcher';
import { isAllowedByPolicy, judgeRendering } from '@crawlkit/fetcher/analysis';
import { decodePercent, discoverSitemaps, loadRobots, type SitemapListing } from '@crawlkit/frontier';

import type { EngineContext } from '../context.js';
import { charged, type CallCredits } from '../credits/charge.js';
import { CRAWLER_USER_AGENT } from '../jobs/crawl-planner.js';
import { frontierFetch, robotsNotes, robotsUnavailableReason, unreadableSitemapNotes } from '../jobs/frontier-fetch.js';
import { cleanUrl, pageKey, patternFilter, siteFilter, type MapScope } from './map-links.js';
import { mapRequestSchema, type MapRequest, type MapRequestInput } from '../v2/jobs.js';
import { parseBody } from '../v2/parse.js';
import { threatProtectionRefusal } from '../v2/threat-protection.js';
import type { ErrorResponse, MapResponse } from '../v2/types.js';
import { sitemapReader } from '../extraction/sitemap-reader.js';
import { nextTurn } from '../next-turn.js';
import type { TellWarning } from '../warning-codes.js';
import { MAP_CREDITS } from './usage.js';

type MapLink = MapResponse['links'][number];

/** Pages map fetches to follow links when sitemaps are not enough; map never renders or extracts content. */
const MAX_PAGES_FETCHED = 100;
const PAGE_TIMEOUT_MS = 10_000;
/** Time a worker may spend on one page's links; past it the page is skipped, as a page that failed to load. */
const PAGE_LINKS_LIMIT_MS = 10_000;
/** Sitemap URLs handled between two turns of the event loop. */
const URLS_PER_TURN = 2_000;

/**
 * Orders links by how many search terms their URL (as read: `%C3%BC` is `ü`), title and description contain (stable
 * otherwise). Terms are runs of letters and digits of any script: `straße` is one term, not `stra` and `e`.
 */
function rankBySearch(links: MapLink[], search: string): MapLink[] {
  const terms = search
    .toLowerCase()
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter(Boolean);
  if (terms.length === 0) return links;
  const score = (l: MapLink) => {
    const hay = `${decodePercent(l.url)} ${l.title ?? ''} ${l.description ?? ''}`.toLowerCase();
    return terms.reduce((s, t) => s + (hay.includes(t) ? 1 : 0), 0);
  };
  return links
    .map((link, index) => ({ link, index, score: score(link) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((x) => x.link);
}

/** A map charged its credit (reference §18: 1), reserved under the call's credit limit before it starts. */
export function chargedMap(
  ctx: EngineContext,
  body: MapRequestInput,
  signal: AbortSignal | undefined,
  call: CallCredits,
  warn: TellWarning,
): Promise<MapResponse | ErrorResponse> {
  return charged(
    ctx.store,
    call,
    MAP_CREDITS,
    () => mapSite(ctx, body, signal),
    (map) => (map.success ? MAP_CREDITS : 0),
    warn,
  );
}

/** `POST /v2/map`: every URL of the site from its sitemaps and the links of its pages, without scraping contents. */
export async function mapSite(
  ctx: EngineContext,
  body: MapRequestInput,
  callerSignal?: AbortSignal,
): Promise<MapResponse | ErrorResponse> {
  const parsed = parseBody(mapRequestSchema, body);
  if (!parsed.ok) return parsed.error;
  const request = parsed.value;
  const refused = threatProtectionRefusal(request.url, request.threatProtection);
  if (refused) return { success: false, code: 'URL_BLOCKED', error: `The URL is blocked: ${refused}.` };
  const signals = [callerSignal, request.timeout ? AbortSignal.timeout(request.timeout) : undefined].filter(
    (s): s is AbortSignal => s !== undefined,
  );
  const signal = signals.length ? AbortSignal.any(signals) : undefined;
  try {
    return await discover(ctx, request, signal);
  } catch (error) {
    if (signal?.aborted && !callerSignal?.aborted) {
      return {
        success: false,
        code: 'MAP_TIMEOUT',
        error:
          `The map operation timed out before completing: it took more than its timeout of ${request.timeout} ms. ` +
          'Raise `timeout` (--timeout of `crawlkit map`), or lower `limit` for a large site.',
      };
    }
    throw error;
  }
}

/**
 * The note of a map that found next to nothing from a page whose links its scripts make (the render judge's
 * verdict on it: an empty app shell, a hash route): map reads pages over HTTP and never runs them.
 */
function clientRenderedNote(start: FetchResult): string | undefined {
  const { url, status, contentType, headers, text } = start;
  const reason = judgeRendering({ url, status, contentType, headers, ...(text !== undefined ? { text } : {}) }).reason;
  if (reason === undefined) return undefined;
  return (
    `${url} looks client-rendered (${reason}): its links are made by its scripts, which map does not run (it reads ` +
    'pages over HTTP). A crawl renders such pages and follows their links; a sitemap lists them for map.'
  );
}

async function discover(ctx: EngineContext, request: MapRequest, signal?: AbortSignal): Promise<MapResponse> {
  const fetchText = frontierFetch(ctx, { revalidate: true });
  const headers = request.headers;
  // Follow a redirect of the input first: a domain that moved maps its new home.
  const start = await ctx.fetcher.fetchPlain({
    url: request.url,
    timeoutMs: PAGE_TIMEOUT_MS,
    ...(headers ? { headers } : {}),
    ...(signal ? { signal } : {}),
  });
  const input = new URL(start.url);
  const scope: MapScope = {
    input: start.url,
    requested: request.url,
    policy: ctx.fetcher.urlPolicy,
    ignoreQueryParameters: request.ignoreQueryParameters,
    includeSubdomains: request.includeSubdomains,
    filterByPath: request.filterByPath,
    ...(request.allowExternalLinks !== undefined ? { allowExternalLinks: request.allowExternalLinks } : {}),
    ...(request.includePaths !== undefined ? { includePaths: request.includePaths } : {}),
    ...(request.excludePaths !== undefined ? { excludePaths: request.excludePaths } : {}),
    ...(request.regexOnFullURL !== undefined ? { regexOnFullURL: request.regexOnFullURL } : {}),
  };
  const inSite = siteFilter(scope);
  const admitted = patternFilter(scope);
  // One entry per page (see `pageKey`); the first form seen is listed.
  const links = new Map<string, MapLink>();
  const add = (raw: string, extra?: Omit<MapLink, 'url'>) => {
    const url = cleanUrl(raw, scope);
    if (!url || !inSite(url) || !admitted(raw) || !isAllowedByPolicy(url, scope.policy)) return;
    const key = pageKey(url, scope);
    const existing = links.get(key);
    if (existing) Object.assign(existing, extra);
    else links.set(key, { url, ...extra });
  };

  let unreadable: SitemapListing['unreadable'] = [];
  const warnings: string[] = [];
  if (request.sitemap !== 'skip') {
    // robots.txt is read for its `Sitemap:` lines only: map lists URLs, it does not fetch them.
    const wait = { ms: ctx.options.robotsTimeoutMs, option: "the engine's `robotsTimeoutMs`" };
    const robots = await loadRobots(input.origin, fetchText, CRAWLER_USER_AGENT, {
      timeoutMs: wait.ms,
      ...(signal ? { signal } : {}),
    });
    const unavailable =
      robots.unavailable === undefined ? undefined : robotsUnavailableReason(robots.unavailable, wait);
    warnings.push(
      ...robotsNotes(`${input.origin}/robots.txt`, { unavailable, truncatedAt: robots.truncatedAt }, 'map'),
    );
    const listing = await discoverSitemaps(start.url, {
      fetchText,
      readSitemap: sitemapReader(ctx.extraction),
      robots,
      ...(signal ? { signal } : {}),
    }).catch((error: unknown) => {
      if (signal?.aborted) throw error;
      return undefined;
    });
    const fromSitemaps = listing?.urls ?? [];
    unreadable = listing?.unreadable ?? [];
    for (let i = 0; i < fromSitemaps.length; i++) {
      add(fromSitemaps[i]!);
      // Up to 100,000 URLs, each cleaned and checked: timers and other pages run between slices of them.
      if (i % URLS_PER_TURN === URLS_PER_TURN - 1) await nextTurn();
      // Without a search to rank them, links past the limit are never listed.
      if (!request.search && links.size >= request.limit) break;
    }
  }

  if (request.sitemap !== 'only') {
    const queue: string[] = [start.url];
    const visited = new Set<string>();
    let first = true;
    // A search ranks every link found (up to MAX_PAGES_FETCHED pages), then cuts to `limit`: the pages that match it
    // are often only linked, past the first `limit` links a sitemap gives.
    while (queue.length && visited.size < MAX_PAGES_FETCHED && (request.search || links.size < request.limit)) {
      signal?.throwIfAborted();
      const url = queue.shift()!;
      // a page is visited once per key it is listed under: `?page=2` is a page of its own when queries are kept
      const key = pageKey(url, scope);
      if (visited.has(key)) continue;
      visited.add(key);
      const page = first
        ? start
        : await ctx.fetcher
            .fetchPlain({
              url,
              timeoutMs: PAGE_TIMEOUT_MS,
              ...(headers ? { headers } : {}),
              ...(signal ? { signal } : {}),
            })
            .catch(() => undefined);
      first = false;
      if (!page?.text || page.status >= 400 || !page.contentType.includes('html')) continue;
      // A page of thousands of links costs as much as a parse: a worker reads and sorts them.
      const read = await ctx.extraction
        .run(
          {
            kind: 'pageLinks',
            page: { url: page.url, text: page.text, ...(page.charset !== undefined ? { charset: page.charset } : {}) },
            scope,
          },
          { runLimitMs: PAGE_LINKS_LIMIT_MS, ...(signal ? { signal } : {}) },
        )
        .catch((error: unknown) => {
          if (signal?.aborted) throw error;
          return undefined;
        });
      if (!read) continue;
      add(page.url, {
        ...(read.title !== undefined ? { title: read.title } : {}),
        ...(read.description !== undefined ? { description: read.description } : {}),
      });
      for (const { url, key } of read.listed) if (!links.has(key)) links.set(key, { url });
      for (const url of read.follow) queue.push(url);
    }
  }

  let result = [...links.values()];
  if (request.search) result = rankBySearch(result, request.search);
  result = result.slice(0, request.limit);
  const response: MapResponse = { success: true, links: result };
  const bare = input.pathname === '/' || input.pathname === '';
  warnings.push(...unreadableSitemapNotes(unreadable));
  if (result.length <= 1 && request.limit !== 1 && !bare) {
    warnings.push(
      `Only ${result.length} result(s) found. For broader coverage, try mapping the base domain: ${input.origin}`,
    );
  }
  const rendered = result.length <= 1 && request.limit !== 1 ? clientRenderedNote(start) : undefined;
  if (rendered) warnings.push(rendered);
  if (warnings.length) response.warning = warnings.join(' ');
  return response;
}
