import { extractPage } from '@crawlkit/extractor';
import { checkUrlAgainstPolicy } from '@crawlkit/fetcher';
import { discoverSitemapUrls, loadRobots, normalizeUrl } from '@crawlkit/frontier';
import { getDomain } from 'tldts';

import type { EngineContext } from '../context.js';
import { CRAWLER_USER_AGENT, frontierFetch } from '../jobs/crawl-planner.js';
import { mapRequestSchema, type MapRequest, type MapRequestInput } from '../v2/jobs.js';
import { parseBody } from '../v2/parse.js';
import type { ErrorResponse, MapResponse } from '../v2/types.js';

type MapLink = MapResponse['links'][number];

/** Pages map fetches to follow links when sitemaps are not enough; map never renders or extracts content. */
const MAX_PAGES_FETCHED = 100;
const PAGE_TIMEOUT_MS = 10_000;

const stripWww = (host: string) => host.replace(/^www\./, '');

function cleanUrl(raw: string, request: MapRequest): string | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.hash = '';
  if (request.ignoreQueryParameters) url.search = '';
  let out = url.toString();
  if (out.endsWith('/')) out = out.slice(0, -1);
  return out;
}

/** Keeps URLs of the same site (registrable domain, `www.` ignored) and, when asked, of the same host and path. */
function siteFilter(input: URL, request: MapRequest): (url: string) => boolean {
  const domain = getDomain(input.hostname) ?? stripWww(input.hostname);
  const host = stripWww(input.hostname);
  const path = input.pathname.replace(/\/$/, '');
  return (url) => {
    const u = new URL(url);
    if ((getDomain(u.hostname) ?? stripWww(u.hostname)) !== domain) return false;
    if (!request.includeSubdomains && stripWww(u.hostname) !== host) return false;
    if (request.filterByPath && !request.allowExternalLinks && path !== '') {
      const p = u.pathname.replace(/\/$/, '');
      if (p !== path && !p.startsWith(`${path}/`)) return false;
    }
    return true;
  };
}

/** Orders links by how many search terms their URL, title and description contain (stable otherwise). */
function rankBySearch(links: MapLink[], search: string): MapLink[] {
  const terms = search.toLowerCase().split(/\W+/).filter(Boolean);
  if (terms.length === 0) return links;
  const score = (l: MapLink) => {
    const hay = `${decodeURIComponent(l.url)} ${l.title ?? ''} ${l.description ?? ''}`.toLowerCase();
    return terms.reduce((s, t) => s + (hay.includes(t) ? 1 : 0), 0);
  };
  return links
    .map((link, index) => ({ link, index, score: score(link) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((x) => x.link);
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
  const signals = [callerSignal, request.timeout ? AbortSignal.timeout(request.timeout) : undefined].filter(
    (s): s is AbortSignal => s !== undefined,
  );
  const signal = signals.length ? AbortSignal.any(signals) : undefined;
  try {
    return await discover(ctx, request, signal);
  } catch (error) {
    if (signal?.aborted && !callerSignal?.aborted) {
      return { success: false, code: 'MAP_TIMEOUT', error: 'The map operation timed out before completing.' };
    }
    throw error;
  }
}

async function discover(ctx: EngineContext, request: MapRequest, signal?: AbortSignal): Promise<MapResponse> {
  const fetchText = frontierFetch(ctx);
  const headers = request.headers;
  // Follow a redirect of the input first: a domain that moved maps its new home.
  const start = await ctx.fetcher.fetchPlain({
    url: request.url,
    timeoutMs: PAGE_TIMEOUT_MS,
    ...(headers ? { headers } : {}),
    ...(signal ? { signal } : {}),
  });
  const input = new URL(start.url);
  const inSite = siteFilter(input, request);
  // One entry per page: `www.`, scheme, trailing-slash and index variants share a key; the first form seen is listed.
  const links = new Map<string, MapLink>();
  const pageKey = (url: string) => normalizeUrl(url, { ignoreQueryParameters: request.ignoreQueryParameters });
  const policy = ctx.fetcher.urlPolicy;
  // Map lists URLs without fetching them: one the URL policy refuses (a sitemap entry for an internal host) is left out.
  const allowed = (url: string) => {
    try {
      checkUrlAgainstPolicy(url, policy);
      return true;
    } catch {
      return false;
    }
  };
  const add = (raw: string, extra?: Omit<MapLink, 'url'>) => {
    const url = cleanUrl(raw, request);
    if (!url || !inSite(url) || !allowed(url)) return;
    const key = pageKey(url);
    const existing = links.get(key);
    if (existing) Object.assign(existing, extra);
    else links.set(key, { url, ...extra });
  };

  if (request.sitemap !== 'skip') {
    // robots.txt is read for its `Sitemap:` lines only: map lists URLs, it does not fetch them.
    const robots = await loadRobots(input.origin, fetchText, CRAWLER_USER_AGENT, signal ? { signal } : {});
    const fromSitemaps = await discoverSitemapUrls(start.url, {
      fetchText,
      robots,
      ...(signal ? { signal } : {}),
    }).catch((error: unknown) => {
      if (signal?.aborted) throw error;
      return [] as string[];
    });
    for (const url of fromSitemaps) add(url);
  }

  if (request.sitemap !== 'only') {
    const queue: string[] = [start.url];
    const visited = new Set<string>();
    let first = true;
    while (queue.length && visited.size < MAX_PAGES_FETCHED && links.size < request.limit) {
      signal?.throwIfAborted();
      const url = queue.shift()!;
      const key = normalizeUrl(url, { ignoreQueryParameters: true });
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
      const extracted = extractPage(page.text, {
        url: page.url,
        onlyMainContent: false,
        formats: { links: true, metadata: true },
      });
      const title = extracted.metadata?.title;
      const description = extracted.metadata?.description;
      add(page.url, {
        ...(typeof title === 'string' ? { title } : {}),
        ...(typeof description === 'string' ? { description } : {}),
      });
      for (const link of extracted.links ?? []) {
        const clean = cleanUrl(link, request);
        if (!clean || !inSite(clean)) continue;
        add(link);
        queue.push(link);
      }
    }
  }

  let result = [...links.values()];
  if (request.search) result = rankBySearch(result, request.search);
  result = result.slice(0, request.limit);
  const response: MapResponse = { success: true, links: result };
  const bare = input.pathname === '/' || input.pathname === '';
  if (result.length <= 1 && request.limit !== 1 && !bare) {
    response.warning = `Only ${result.length} result(s) found. For broader coverage, try mapping the base domain: ${input.origin}`;
  }
  return response;
}
