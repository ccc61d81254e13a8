/**
 * Okapi BM25 as SQLite FTS5's `bm25()` computes it, for the drivers that rank in JavaScript (memory, Redis): each
 * hit of a query item in a column adds that column's weight to the item's frequency; a document's length is its
 * tokens in every column; an item's IDF is `ln((N - n + 0.5) / (n + 0.5))`, at least 1e-6.
 */

/** BM25's term-frequency saturation and length normalisation (FTS5's values). */
const K1 = 1.2;
const B = 0.75;

/** The searchable columns, in the order of every driver's index. */
export const SEARCH_COLUMNS = ['title', 'description', 'text'] as const;

/** What a hit in each column weighs: a page titled with the words is about them; its body only mentions them. */
export const COLUMN_WEIGHTS: readonly number[] = [8, 3, 1];

/** The IDF of an item found in `containing` of `total` documents. */
export function inverseFrequency(total: number, containing: number): number {
  const idf = Math.log((total - containing + 0.5) / (containing + 0.5));
  return idf > 0 ? idf : 1e-6;
}

/** Hits per column weighted into one frequency. */
export function weightedFrequency(hits: readonly number[]): number {
  let frequency = 0;
  for (let c = 0; c < hits.length; c++) frequency += (hits[c] ?? 0) * COLUMN_WEIGHTS[c]!;
  return frequency;
}

/**
 * The BM25 score of a document (higher is better) from each item's weighted frequency in it and IDF, its length in
 * tokens and the average length.
 */
export function bm25(frequencies: readonly number[], idfs: readonly number[], length: number, average: number): number {
  let score = 0;
  const norm = K1 * (1 - B + (B * length) / (average || 1));
  for (let i = 0; i < frequencies.length; i++) {
    const f = frequencies[i]!;
    if (f > 0) score += (idfs[i]! * f * (K1 + 1)) / (f + norm);
  }
  return score;
}
