import { textPositions, type ColumnHits } from './entry.js';
import type { Postings, PostingSource } from './postings.js';
import { decodePositions, phraseHits, type ColumnPositions } from './positions.js';
import { SEARCH_COLUMNS } from './ranking.js';

/** A phrase's hits per column in an entry (its words in order, each the stems it may be: a prefix's several). */
export type PhraseHitsOf = (id: string, phrase: readonly (readonly string[])[]) => ColumnHits;

/**
 * Reads what `phrases` need to be checked on the entries `ids`: the positions of their words, from the postings. An
 * entry that holds a word but has no positions for it (indexed by a version before positions, until it is written
 * again), or whose positions do not count its postings' hits, is read from its text instead, by the same rule.
 */
export async function phraseReader(
  source: PostingSource,
  postings: Postings,
  phrases: readonly (readonly (readonly string[])[])[],
  ids: readonly string[],
): Promise<PhraseHitsOf> {
  const words = [...new Set(phrases.flat(2))];
  const found = new Map<string, Map<string, ColumnPositions>>();
  const unindexed: string[] = [];
  for (const id of ids) {
    const positions = new Map<string, ColumnPositions>();
    for (const word of words) {
      const hits = postings.hits.get(word)?.get(id);
      if (!hits) continue;
      const encoded = postings.positions(word, id);
      const at = encoded === undefined ? undefined : decodePositions(encoded);
      if (!at || hits.some((h, c) => (at[c]?.length ?? 0) !== h)) {
        unindexed.push(id);
        break;
      }
      positions.set(word, at);
    }
    found.set(id, positions);
  }
  if (unindexed.length) {
    const texts = await source.texts(unindexed);
    // Each word of these texts folded and stemmed once: they may be thousands.
    const known = new Map<string, string[]>();
    for (const id of unindexed) {
      const text = texts.get(id);
      found.set(id, text ? textPositions(text, known) : new Map<string, ColumnPositions>());
    }
  }
  return (id, phrase) => phraseHits(phrase.map((stems) => positionsOf(found.get(id), stems)));
}

/** Where any of `stems` stands in an entry, per column, ascending. */
function positionsOf(positions: Map<string, ColumnPositions> | undefined, stems: readonly string[]): ColumnPositions {
  if (stems.length === 1) return positions?.get(stems[0]!) ?? NONE;
  const each = stems.map((stem) => positions?.get(stem)).filter((p) => p !== undefined);
  return each.length ? SEARCH_COLUMNS.map((_, c) => each.flatMap((p) => p[c] ?? []).sort((a, b) => a - b)) : NONE;
}

const NONE: ColumnPositions = [];
