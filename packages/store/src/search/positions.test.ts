import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { decodePositions, encodePositions, phraseHits, termPositions } from './positions.js';

/** The phrase rule read straight from the term sequences: every start where the phrase's words follow in order. */
function scan(columns: readonly (readonly string[])[], phrase: readonly string[]): number[] {
  return columns.map((found) => {
    let hits = 0;
    outer: for (let i = 0; i + phrase.length <= found.length; i++) {
      for (let j = 0; j < phrase.length; j++) if (found[i + j] !== phrase[j]) continue outer;
      hits++;
    }
    return hits;
  });
}

const term = fc.constantFrom('a', 'b', 'c', 'proxi', 'server', '42');
const columns = fc.tuple(
  fc.array(term, { maxLength: 8 }),
  fc.array(term, { maxLength: 20 }),
  fc.array(term, { maxLength: 400 }),
);

describe('term positions', () => {
  it('encode and decode to the same positions, in a string without spaces', () => {
    fc.assert(
      fc.property(columns, (cols) => {
        for (const positions of termPositions(cols).values()) {
          const encoded = encodePositions(positions);
          expect(encoded).toMatch(/^[0-9a-z,;]+$/);
          expect(decodePositions(encoded)).toEqual(positions);
        }
      }),
      { numRuns: 500 },
    );
    expect(encodePositions([[0, 3], [], [5, 20, 21]])).toBe('0,3;;5,f,1');
    expect(decodePositions('0,3;;5,f,1')).toEqual([[0, 3], [], [5, 20, 21]]);
  });

  it('answer a phrase as the term sequences do: repeated words, overlaps, phrases longer than the text', () => {
    fc.assert(
      fc.property(columns, fc.array(term, { minLength: 2, maxLength: 5 }), (cols, phrase) => {
        const positions = termPositions(cols);
        const words = phrase.map((word) => positions.get(word) ?? []);
        expect(phraseHits(words)).toEqual(scan(cols, phrase));
      }),
      { numRuns: 2_000 },
    );
    const at = termPositions([['a', 'a', 'a'], [], ['a', 'b', 'a', 'b', 'a']]);
    const hits = (...phrase: string[]) => phraseHits(phrase.map((w) => at.get(w)!));
    expect(hits('a', 'a')).toEqual([2, 0, 0]);
    expect(hits('a', 'b', 'a')).toEqual([0, 0, 2]);
    expect(hits('a', 'a', 'a', 'a')).toEqual([0, 0, 0]);
  });
});
