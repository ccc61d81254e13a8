/**
 * Where each term stands in an entry, and the phrase rule read from it: the JavaScript indexes (memory, Redis) keep
 * each term's positions beside its postings, so a phrase is answered from the index without reading the texts.
 *
 * A term's positions in an entry are its indexes in each column's term sequence (`terms()` of the title, the
 * description, the text), ascending. Encoded as one short string: the columns in `SEARCH_COLUMNS` order separated by
 * `;`, each column's positions as base-36 gaps from the previous one (the first from 0) separated by `,`
 * (`0,3;;5,f,1` is title 0 and 3, no description, text 5, 20 and 21). No spaces: the Redis scripts read it as a word.
 */
import type { ColumnHits } from './entry.js';
import { SEARCH_COLUMNS } from './ranking.js';

/** A term's positions in each column of an entry, ascending. */
export type ColumnPositions = number[][];

/** The positions of each term of `columns` (each column's terms, in order). */
export function termPositions(columns: readonly (readonly string[])[]): Map<string, ColumnPositions> {
  const found = new Map<string, ColumnPositions>();
  columns.forEach((terms, c) => {
    for (let i = 0; i < terms.length; i++) {
      let positions = found.get(terms[i]!);
      if (!positions) found.set(terms[i]!, (positions = SEARCH_COLUMNS.map(() => [])));
      positions[c]!.push(i);
    }
  });
  return found;
}

/** `positions` as the string the indexes keep (see the module comment). */
export function encodePositions(positions: ColumnPositions): string {
  return positions
    .map((column) => column.map((p, i) => (p - (i ? column[i - 1]! : 0)).toString(36)).join(','))
    .join(';');
}

/** The positions of an `encodePositions` string. */
export function decodePositions(encoded: string): ColumnPositions {
  return encoded.split(';').map((column) => {
    if (!column) return [];
    let at = 0;
    return column.split(',').map((gap) => (at += parseInt(gap, 36)));
  });
}

/**
 * The phrase rule: hits of a phrase in each column, from the positions of each of its words in order (a word repeated
 * in the phrase is given once per place). A hit is a place where the first word is followed by each next word at the
 * next position; overlapping hits count (`a a` is twice in `a a a`).
 */
export function phraseHits(words: readonly ColumnPositions[]): ColumnHits {
  return SEARCH_COLUMNS.map((_, c) => {
    const lists = words.map((w) => w[c] ?? []);
    const cursors = lists.map(() => 0);
    let hits = 0;
    outer: for (const start of lists[0] ?? []) {
      for (let j = 1; j < lists.length; j++) {
        const list = lists[j]!;
        let k = cursors[j]!;
        while (k < list.length && list[k]! < start + j) k++;
        cursors[j] = k;
        if (k === list.length) break outer;
        if (list[k] !== start + j) continue outer;
      }
      hits++;
    }
    return hits;
  });
}
