import type { SearchText } from '../contracts/search.js';
import { SEARCH_COLUMNS } from './ranking.js';
import { MAX_TEXT } from '../text-digest.js';
import { terms } from './tokens.js';

/** Hits of a term in each searchable column (`SEARCH_COLUMNS` order). */
export type ColumnHits = number[];

/** A page's text as the JavaScript indexes keep it: each term's hits per column, and its length in terms. */
export interface TermCounts {
  length: number;
  terms: Map<string, ColumnHits>;
}

/** Counts the terms of each column of `text`. */
export function termCounts(text: SearchText): TermCounts {
  const counts = new Map<string, ColumnHits>();
  let length = 0;
  SEARCH_COLUMNS.forEach((column, c) => {
    const found = terms(text[column]);
    length += found.length;
    for (const term of found) {
      let hits = counts.get(term);
      if (!hits) {
        hits = SEARCH_COLUMNS.map(() => 0);
        counts.set(term, hits);
      }
      hits[c]!++;
    }
  });
  return { length, terms: counts };
}

/** Hits of a phrase (stems in order) in each column of `text`; `known`: see `terms`. */
export function phraseHits(text: SearchText, phrase: readonly string[], known?: Map<string, string>): ColumnHits {
  return SEARCH_COLUMNS.map((column) => {
    const found = terms(text[column], known);
    let hits = 0;
    outer: for (let i = 0; i + phrase.length <= found.length; i++) {
      for (let j = 0; j < phrase.length; j++) if (found[i + j] !== phrase[j]) continue outer;
      hits++;
    }
    return hits;
  });
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
