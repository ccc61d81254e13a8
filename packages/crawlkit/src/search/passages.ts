/**
 * The passages of a stored page's text that match a search query: the `highlights` format's passages (sentences,
 * code blocks, table rows) ranked by the index's own BM25 (`@crawlkit/store`'s ranking, the one every driver answers
 * with), the best few in page order, shaped as the format's `highlights` field.
 */
import { bm25, inverseFrequency, searchTerms, type SearchTerms } from '@crawlkit/store';

import { highlightsText, passagesOf } from '../formats/highlights.js';

/** Passages a result carries at most. */
export const MAX_PASSAGES = 3;

/** The query's words as the index reads them (stems; a prefix matches every word it starts). */
function queryItems(terms: SearchTerms): ((term: string) => boolean)[] {
  return [
    ...terms.any.map((t) => (t.prefix ? (term: string) => term.startsWith(t.term) : (term: string) => term === t.term)),
    ...terms.phrases.flat().map((t) => (term: string) => term === t.term),
  ];
}

/**
 * The passages of `text` that best match `terms`, at most `limit`, verbatim and in page order, separated by blank
 * lines (the `highlights` field of a document); empty when none matches.
 */
export function matchingPassages(text: string, terms: SearchTerms, limit = MAX_PASSAGES): string {
  const passages = passagesOf(text);
  if (passages.length === 0) return '';
  const items = queryItems(terms);
  const tokens = passages.map((p) => searchTerms(p.text));
  const frequencies = tokens.map((words) => items.map((matches) => words.filter(matches).length));
  const idfs = items.map((_, i) => inverseFrequency(passages.length, frequencies.filter((f) => f[i]! > 0).length));
  const average = tokens.reduce((sum, words) => sum + words.length, 0) / passages.length;
  return highlightsText(
    passages
      .map((passage, i) => ({ passage, score: bm25(frequencies[i]!, idfs, tokens[i]!.length, average) }))
      .filter((p) => p.score > 0)
      .sort((a, b) => b.score - a.score || a.passage.index - b.passage.index)
      .slice(0, limit)
      .map((p) => p.passage)
      .sort((a, b) => a.index - b.index),
  );
}
