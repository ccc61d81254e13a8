import type { CountedTerms, SearchText } from '../contracts/search.js';
import { SEARCH_COLUMNS } from './ranking.js';
import { MAX_TEXT } from '../text-digest.js';
import { encodePositions, termPositions, type ColumnPositions } from './positions.js';
import { terms } from './tokens.js';

/** Hits of a term in each searchable column (`SEARCH_COLUMNS` order). */
export type ColumnHits = number[];

/** A page's text as the JavaScript indexes keep it: each term's hits per column, where it stands, and its length. */
export interface TermCounts {
  /** Terms in all columns. */
  length: number;
  terms: Map<string, ColumnHits>;
  /** Each term's positions, encoded (`encodePositions`). */
  positions: Map<string, string>;
}

/** Counts the terms of each column of `text`, and where each stands. */
export function termCounts(text: SearchText): TermCounts {
  const columns = SEARCH_COLUMNS.map((column) => terms(text[column]));
  const counts = new Map<string, ColumnHits>();
  const positions = new Map<string, string>();
  for (const [term, at] of termPositions(columns)) {
    counts.set(
      term,
      at.map((column) => column.length),
    );
    positions.set(term, encodePositions(at));
  }
  return { length: columns.reduce((sum, column) => sum + column.length, 0), terms: counts, positions };
}

/** The terms of the text the index keeps of `text` (`searchableText`), as `CountedTerms`. */
export function countTerms(text: SearchText): CountedTerms {
  const counts = termCounts(searchableText(text));
  let postings = '';
  for (const [term, hits] of counts.terms) {
    if (postings) postings += '\n';
    postings += `${term} ${hits.join(',')}|${counts.positions.get(term)!}`;
  }
  return { length: counts.length, postings };
}

/**
 * Where each term stands in `text`, read from the text itself (an entry indexed without positions); `known`: see
 * `terms`.
 */
export function textPositions(text: SearchText, known?: Map<string, string[]>): Map<string, ColumnPositions> {
  return termPositions(SEARCH_COLUMNS.map((column) => terms(text[column], known)));
}

/** The text kept of a page: what is searched, with its lengths capped so one huge page cannot swell the index. */
export function searchableText(text: SearchText): SearchText {
  return { ...searchableHead(text), text: searchableBody(text) };
}

/** The main content kept of a page (`searchableText`'s `text`): read only when it is asked for. */
export function searchableBody(text: SearchText): string {
  return text.text.slice(0, MAX_TEXT);
}

/** `searchableText` without the main content: what names a text beside its digest, without reading the text. */
export function searchableHead(text: SearchText): Omit<SearchText, 'text' | 'textDigest'> {
  return {
    url: text.url,
    title: text.title.slice(0, MAX_TITLE),
    description: text.description.slice(0, MAX_DESCRIPTION),
  };
}

const MAX_TITLE = 1_000;
const MAX_DESCRIPTION = 4_000;
