/**
 * How text becomes search terms, the same way in every driver: words (runs of letters and digits) lower-cased,
 * diacritics removed, then Porter-stemmed. It matches SQLite FTS5's `porter unicode61 remove_diacritics 2`
 * tokenizer, so the memory, SQLite and Redis indexes find the same pages for the same query.
 */
import { stemmer } from 'stemmer';

const WORD = /[\p{L}\p{N}]+/gu;
const MARKS = /\p{M}+/gu;

/** Common English words a query's loose words skip (they match nearly every page); phrases keep them. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our so than that the their them then there these they this to was we were what when ' +
    'where which who whom why will with would you your about after all also any before between both each more ' +
    'most other over same should some such only own too very just'
  ).split(' '),
);

/** The words of `text` as written, lower-cased and without diacritics, with where each starts and ends. */
export function words(text: string): { word: string; start: number; end: number }[] {
  const found: { word: string; start: number; end: number }[] = [];
  for (const match of text.matchAll(WORD)) {
    const word = fold(match[0]);
    if (word) found.push({ word, start: match.index, end: match.index + match[0].length });
  }
  return found;
}

/** A word lower-cased, without diacritics. */
export function fold(word: string): string {
  return word.normalize('NFKD').replace(MARKS, '').toLowerCase();
}

/** The stem of a folded word. */
export function stem(word: string): string {
  return stemmer(word);
}

/**
 * The search terms of `text`, in order: folded and stemmed words. `known` keeps each word as written with its term
 * across calls (one query's check of many texts): a text's words are mostly ones already seen, and folding and
 * stemming are most of the work.
 */
export function terms(text: string, known?: Map<string, string>): string[] {
  if (!known) return words(text).map((w) => stem(w.word));
  const found: string[] = [];
  for (const [written] of text.matchAll(WORD)) {
    let term = known.get(written);
    if (term === undefined) {
      const folded = fold(written);
      term = folded ? stem(folded) : '';
      known.set(written, term);
    }
    if (term) found.push(term);
  }
  return found;
}
