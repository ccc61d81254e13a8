import type { SearchHit, SearchIndex, SearchTerms } from '@crawlkit/store';

import { matchingPassages } from './passages.js';

/** A result of the local index, in upstream's web result shape plus what only a stored page has. */
export interface LocalResult {
  url: string;
  title: string;
  /** The passage that matched best (a search engine's snippet). */
  description: string;
  position: number;
  /** `local`: the page is one crawlkit stored. */
  category: 'local';
  /** The page's own meta description. */
  pageDescription?: string;
  /**
   * The passages of the page that match the query, separated by blank lines, as the `highlights` format answers
   * (with `highlights`, the default).
   */
  highlights?: string;
  /** When the page was stored (ISO 8601). */
  storedAt: string;
  /** The crawl or batch whose result this is (absent for a page cache entry). */
  jobId?: string;
}

export interface LocalSearch {
  terms: SearchTerms;
  limit: number;
  includeHosts?: string[];
  excludeHosts?: string[];
  since?: number;
  until?: number;
  highlights: boolean;
  /**
   * Whether a stored page may be shown (the engine's URL policy: a page another engine on the store was allowed to
   * fetch is not shown where this one would refuse it).
   * @default every page
   */
  allowed?: (url: string) => boolean;
}

/** The index's answer to ask for when some hits may be left out: its most, so that `limit` results remain. */
const MAX_HITS = 100;

/** The index's hits for the query; `rerank` may reorder them (hybrid ranking) before positions are given. */
export async function searchLocal(
  index: SearchIndex,
  search: LocalSearch,
  rerank?: (hits: SearchHit[]) => Promise<SearchHit[]>,
): Promise<LocalResult[]> {
  const query = {
    terms: search.terms,
    // A re-ranker chooses among more candidates than it keeps.
    limit: rerank ? Math.min(100, search.limit * 3) : search.limit,
    ...(search.includeHosts ? { includeHosts: search.includeHosts } : {}),
    ...(search.excludeHosts ? { excludeHosts: search.excludeHosts } : {}),
    ...(search.since !== undefined ? { since: search.since } : {}),
    ...(search.until !== undefined ? { until: search.until } : {}),
  };
  let hits = await index.search(query);
  const { allowed } = search;
  if (allowed && !hits.every((hit) => allowed(hit.url))) {
    // Asked again for more only when a hit was left out, so a policy that refuses nothing costs nothing.
    if (hits.length === query.limit && query.limit < MAX_HITS) hits = await index.search({ ...query, limit: MAX_HITS });
    hits = hits.filter((hit) => allowed(hit.url)).slice(0, query.limit);
  }
  if (rerank && hits.length > 1) hits = (await rerank(hits)).slice(0, search.limit);
  return hits.map((hit, i) => {
    const result: LocalResult = {
      url: hit.url,
      title: hit.title,
      description: hit.snippet,
      position: i + 1,
      category: 'local',
      storedAt: new Date(hit.time).toISOString(),
    };
    if (hit.description) result.pageDescription = hit.description;
    if (search.highlights) {
      const passages = matchingPassages(hit.text, search.terms);
      if (passages) result.highlights = passages;
    }
    if (hit.jobId) result.jobId = hit.jobId;
    return result;
  });
}
