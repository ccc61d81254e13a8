import { describe, expect, it } from 'vitest';

import { textPositions } from './entry.js';
import { phraseHits } from './positions.js';
import { terms } from './tokens.js';

describe('search terms', () => {
  it('are the same with words remembered across texts as without', () => {
    const texts = ['Running runners ran; Café Über 42 naïve', 'RUNNING fast, café-au-lait, 42nd über naive', ''];
    const known = new Map<string, string>();
    for (const text of texts) expect(terms(text, known)).toEqual(terms(text));
    expect(known.get('Café')).toBe(terms('Café')[0]);
    const text = { url: 'u', title: 'Run fast', description: 'running fast and running fast', text: texts[0]! };
    const hits = (positions: ReturnType<typeof textPositions>) =>
      phraseHits(terms('running fast').map((term) => positions.get(term)!));
    expect(textPositions(text, known)).toEqual(textPositions(text));
    expect(hits(textPositions(text, known))).toEqual([1, 2, 0]);
  });
});
