/**
 * The passages of a stored page's text that match a query: lines and sentences, ranked by the index's own BM25
 * (`@crawlkit/store`'s ranking, the one every driver answers with), the best few returned in page order.
 */
import { bm25, inverseFrequency, searchTerms, type SearchTerms } from '@crawlkit/store';

/** Passages a result carries at most. */
export const MAX_PASSAGES = 3;

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });

/** Lines of the text cut into sentences; runs of fewer than three words are no passage (labels, crumbs). */
function passagesOf(text: string): string[] {
  const passages: string[] = [];
  for (const line of text.split('\n')) {
    for (const { segment } of sentences.segment(line)) {
      const sentence = segment.replace(/^[\s#>*+-]+/, '').trim();
      if (sentence.split(/\s+/).length >= 3) passages.push(sentence);
    }
  }
  return passages;
}

/** The query's words as the index reads them (stems; a prefix matches every word it starts). */
function queryItems(terms: SearchTerms): ((term: string) => boolean)[] {
  return [
    ...terms.any.map((t) => (t.prefix ? (term: string) => term.startsWith(t.term) : (term: string) => term === t.term)),
    ...terms.phrases.flat().map((t) => (term: string) => term === t.term),
  ];
}

/** The passages of `text` that best match `terms`, at most `limit`, verbatim and in page order. */
export function matchingPassages(text: string, terms: SearchTerms, limit = MAX_PASSAGES): string[] {
  const passages = passagesOf(text);
  if (passages.length === 0) return [];
  const items = queryItems(terms);
  const tokens = passages.map((p) => searchTerms(p));
  const frequencies = tokens.map((words) => items.map((matches) => words.filter(matches).length));
  const idfs = items.map((_, i) => inverseFrequency(passages.length, frequencies.filter((f) => f[i]! > 0).length));
  const average = tokens.reduce((sum, words) => sum + words.length, 0) / passages.length;
  return passages
    .map((text, i) => ({ text, i, score: bm25(frequencies[i]!, idfs, tokens[i]!.length, average) }))
    .filter((p) => p.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, limit)
    .sort((a, b) => a.i - b.i)
    .map((p) => p.text);
}
