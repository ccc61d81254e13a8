/**
 * Search over an inverted index of term postings, for the drivers that rank in JavaScript (memory, Redis): one
 * algorithm, the same BM25 as SQLite's (`ranking.ts`), over whatever holds the postings (`PostingSource`).
 */
import type { SearchHit, SearchQuery, SearchText } from '../contracts/search.js';
import type { ColumnHits } from './entry.js';
import { hostMatches } from './hosts.js';
import { phraseReader } from './phrases.js';
import type { QueryTerm } from './query.js';
import { bm25, inverseFrequency, weightedFrequency } from './ranking.js';
import { hitSnippet } from './snippet.js';

/** What the index knows of an entry without its text. */
export interface EntryMeta {
  id: string;
  url: string;
  host: string;
  time: number;
  /** Terms in all columns. */
  length: number;
  pageKey?: string;
  jobId?: string;
}

/** A query's postings, as `PostingSource.postings` reads them. */
export interface Postings {
  /** Each term's postings: entry id → hits per column (an unknown term has none). */
  hits: Map<string, Map<string, ColumnHits>>;
  /**
   * Where a term read with its positions stands in an entry that holds it, encoded (`positions.ts`); undefined for an
   * entry indexed by a version without positions (its phrases are read from its text).
   */
  positions(term: string, id: string): string | undefined;
}

/** Where the postings are (a Map in this process, hashes in Redis). */
export interface PostingSource {
  /** Entries indexed, and their terms summed. */
  totals(): Promise<{ entries: number; length: number }>;
  /** The postings of `terms`, with the positions of those in `placed` (the words of a query's phrases). */
  postings(terms: readonly string[], placed: ReadonlySet<string>): Promise<Postings>;
  /** The indexed terms that start with `prefix`. */
  expand(prefix: string): Promise<string[]>;
  meta(ids: readonly string[]): Promise<Map<string, EntryMeta>>;
  texts(ids: readonly string[]): Promise<Map<string, SearchText>>;
  /**
   * The time of each URL's newest entry, whatever its text (`newestOnly`). A URL the source knows no time of (an
   * index written before it kept them) is left out.
   */
  newest(urls: readonly string[]): Promise<Map<string, number>>;
}

/** Hits per entry of one scored item (a word, a prefix's words, a phrase). */
type ItemHits = Map<string, ColumnHits>;

function add(into: ItemHits, from: Map<string, ColumnHits> | undefined): void {
  for (const [id, hits] of from ?? []) {
    const sum = into.get(id);
    into.set(id, sum ? sum.map((h, c) => h + (hits[c] ?? 0)) : [...hits]);
  }
}

function intersect(sets: readonly Set<string>[]): Set<string> {
  const [first, ...rest] = [...sets].sort((a, b) => a.size - b.size);
  return new Set([...(first ?? [])].filter((id) => rest.every((s) => s.has(id))));
}

/**
 * One hit per URL, best first, from entries ranked best first: the URL's best entry among its newest ones. An entry
 * older than another of its URL (a crawl's result of a page stored again since) is its page's past text: a search
 * finds pages by their current text. `newest` tells the newest time of URLs, read for a few ranked entries at a time.
 */
export async function newestOnly<E extends { url: string; time: number }>(
  ranked: readonly E[],
  limit: number,
  newest: (urls: readonly string[]) => Promise<Map<string, number>>,
): Promise<E[]> {
  const best: E[] = [];
  const urls = new Set<string>();
  const chunk = Math.max(limit * 4, 16);
  for (let start = 0; start < ranked.length && best.length < limit; start += chunk) {
    const slice = ranked.slice(start, start + chunk);
    const times = await newest([...new Set(slice.map((entry) => entry.url))]);
    for (const entry of slice) {
      if (urls.has(entry.url) || entry.time < (times.get(entry.url) ?? entry.time)) continue;
      urls.add(entry.url);
      best.push(entry);
      if (best.length >= limit) break;
    }
  }
  return best;
}

/** Runs `query` against `source`: matching entries, filtered, ranked by BM25, one per URL, best first. */
export async function searchPostings(source: PostingSource, query: SearchQuery): Promise<SearchHit[]> {
  const { terms } = query;
  const termsOf = (t: QueryTerm) => (t.prefix ? source.expand(t.term) : Promise.resolve([t.term]));
  const expansions = await Promise.all(terms.any.map(termsOf));
  // A phrase's words, each the terms it may be (a prefix, at the end of a phrase, those it starts).
  const phraseWords = (phrase: readonly QueryTerm[]) => Promise.all(phrase.map(termsOf));
  const phrases = await Promise.all(terms.phrases.map(phraseWords));
  const excludedPhrases = await Promise.all(terms.none.filter((p) => p.length > 1).map(phraseWords));
  const placed = new Set([...phrases.flat(2), ...excludedPhrases.flat(2)]);
  const needed = [...new Set([...expansions.flat(), ...placed, ...terms.none.flatMap((p) => p.map((t) => t.term))])];
  const read = await source.postings(needed, placed);
  const postings = read.hits;
  const ids = (...words: string[]) => new Set(words.flatMap((term) => [...(postings.get(term)?.keys() ?? [])]));

  const loose: ItemHits[] = expansions.map((words) => {
    const hits: ItemHits = new Map();
    for (const word of words) add(hits, postings.get(word));
    return hits;
  });
  // Entries that may hold each phrase: those with all its words (their order is checked below).
  const phraseCandidates = phrases.map((phrase) => intersect(phrase.map((alternatives) => ids(...alternatives))));
  let candidates: Set<string>;
  if (phrases.length) candidates = intersect(phraseCandidates);
  else candidates = new Set(loose.flatMap((hits) => [...hits.keys()]));
  for (const excluded of terms.none) {
    if (excluded.length === 1) for (const id of ids(excluded[0]!.term)) candidates.delete(id);
  }

  const meta = await source.meta([...candidates]);
  const kept = [...candidates].filter((id) => {
    const m = meta.get(id);
    if (!m) return false;
    if (query.since !== undefined && m.time < query.since) return false;
    if (query.until !== undefined && m.time > query.until) return false;
    if (query.includeHosts?.length && !hostMatches(m.host, query.includeHosts)) return false;
    return !(query.excludeHosts?.length && hostMatches(m.host, query.excludeHosts));
  });

  // Phrases and excluded phrases: from the positions of their words in the entries that may hold them.
  const phraseHits: ItemHits[] = phrases.map(() => new Map<string, ColumnHits>());
  let survivors = kept;
  if (phrases.length || excludedPhrases.length) {
    const hitsOf = await phraseReader(source, read, [...phrases, ...excludedPhrases], kept);
    survivors = kept.filter((id) => {
      if (excludedPhrases.some((p) => hitsOf(id, p).some((h) => h > 0))) return false;
      return phrases.every((phrase, i) => {
        const hits = hitsOf(id, phrase);
        if (!hits.some((h) => h > 0)) return false;
        phraseHits[i]!.set(id, hits);
        return true;
      });
    });
  }

  const { entries, length } = await source.totals();
  const average = entries ? length / entries : 1;
  const items = [...loose, ...phraseHits];
  const idfs = items.map((hits) => inverseFrequency(entries, hits.size));
  const ranked = survivors
    .map((id) => {
      const frequencies = items.map((hits) => weightedFrequency(hits.get(id) ?? []));
      return { id, score: bm25(frequencies, idfs, meta.get(id)!.length, average) };
    })
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));

  const best = await newestOnly(
    ranked.map((entry) => ({ ...entry, url: meta.get(entry.id)!.url, time: meta.get(entry.id)!.time })),
    query.limit,
    (urls) => source.newest(urls),
  );
  const texts = await source.texts(best.map((b) => b.id));
  return best.flatMap(({ id, score }) => {
    const m = meta.get(id)!;
    const text = texts.get(id);
    if (!text) return [];
    const hit: SearchHit = {
      url: m.url,
      title: text.title,
      description: text.description,
      snippet: hitSnippet(text, terms),
      text: text.text,
      score,
      time: m.time,
      host: m.host,
    };
    if (m.pageKey !== undefined) hit.pageKey = m.pageKey;
    if (m.jobId !== undefined) hit.jobId = m.jobId;
    return [hit];
  });
}
