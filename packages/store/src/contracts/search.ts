/**
 * The search index: the text of every stored page (page cache entries and job results), ranked by BM25.
 *
 * The index follows the store, in the store's own transactions: `PageStore.put` with `search` indexes the page (one
 * without replaces the page and drops its old text), and every way a page leaves (`deleteByUrl`, `prune`, `clear`,
 * the size cap's eviction) takes its text out; `TaskStore.complete` with `search` indexes the result, and deleting the
 * job (`delete`, `deleteExpired`) takes it out. So a crash never leaves the index ahead of or behind the store.
 */
import type { SearchTerms } from '../search/query.js';

/** What the index keeps of a page, beside the page or result it belongs to. */
export interface SearchText {
  /** The URL a hit shows: the page's own, after redirects (user info removed by the caller). */
  url: string;
  /** The page's title. */
  title: string;
  /** Its meta description. */
  description: string;
  /** Its main content as text (markdown whose link targets and images are gone). */
  text: string;
  /**
   * `searchTextDigest(text)`, when the caller computed it (crawlkit does in the extraction worker, off the thread
   * that writes the store); computed by the store otherwise. A wrong digest makes the index show another page's text.
   */
  textDigest?: string;
  /**
   * `countTerms(this text)`, when the caller counted them (crawlkit does in the extraction worker, for an index whose
   * `countsAhead` is set); counted by the store otherwise. Wrong counts make the index find the page by other words.
   */
  counted?: CountedTerms;
}

/** A text's terms as an index that writes postings keeps them (`countTerms`): made once, off the store's thread. */
export interface CountedTerms {
  /** Terms in all columns. */
  length: number;
  /**
   * One line a term: `term hits|positions`, the hits per column comma-separated and the positions as
   * `encodePositions` writes them.
   */
  postings: string;
}

export interface SearchQuery {
  /** The parsed query (`parseSearchQuery`). */
  terms: SearchTerms;
  /** Hits returned at most. */
  limit: number;
  /** Only pages of these hosts or their subdomains (lower-case host names). */
  includeHosts?: string[];
  /** No page of these hosts or their subdomains. */
  excludeHosts?: string[];
  /** Only pages stored at or after this time (epoch ms). */
  since?: number;
  /** Only pages stored at or before this time (epoch ms). */
  until?: number;
}

export interface SearchHit {
  url: string;
  title: string;
  description: string;
  /**
   * The passage of the page's text that matched best, a few dozen words long; when its text holds no query word, its
   * description, else the start of its text. The title is not repeated (a text that starts with it is read after it).
   */
  snippet: string;
  /** The text indexed (for highlights). */
  text: string;
  /** BM25 score: higher ranks first. Comparable within one answer only. */
  score: number;
  /** When the page was stored: a cache entry's `cachedAt`, a result's completion. */
  time: number;
  host: string;
  /** The page cache entry this hit is (absent for a job result). */
  pageKey?: string;
  /** The job whose result this hit is (absent for a page cache entry). */
  jobId?: string;
}

export interface SearchIndex {
  /**
   * The stored pages that match, best first, one hit per URL: its best-ranked entry among its newest (an entry older
   * than another of its URL, a crawl's result of a page stored again since, is the page's past text and is not
   * found). Only what the store holds at the call is found.
   */
  search(query: SearchQuery): Promise<SearchHit[]>;
  /** Entries indexed: page cache entries and job results with text. */
  count(): Promise<number>;
  /**
   * Set when the index counts a text's terms as it is written (Redis), so a caller with a thread to spare counts
   * them beforehand (`SearchText.counted`).
   * @default false
   */
  readonly countsAhead?: boolean;
}
