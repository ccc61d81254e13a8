import { describe, expect, it } from 'vitest';

import { isWhitespace, parseSrcset } from './urls.js';

type Candidate = { url: string; size: number; unit: 'w' | 'x' };

/**
 * The HTML standard's "parse a srcset attribute", character by character (the candidates' URLs and first
 * descriptors): the reference `parseSrcset` must agree with.
 */
function specParse(input: string): Candidate[] {
  const out: Candidate[] = [];
  const space = (c: string | undefined) => c !== undefined && /\s/.test(c);
  let pos = 0;
  for (;;) {
    while (pos < input.length && (space(input[pos]) || input[pos] === ',')) pos++;
    if (pos >= input.length) return out;
    let url = '';
    while (pos < input.length && !space(input[pos])) url += input[pos++];
    const descriptors: string[] = [];
    if (url.endsWith(',')) url = url.replace(/,+$/, '');
    else {
      let current = '';
      let state: 'in' | 'parens' | 'after' = 'in';
      while (pos < input.length) {
        const c = input[pos]!;
        pos++;
        if (state === 'in') {
          if (space(c)) {
            if (current) descriptors.push(current);
            current = '';
            state = 'after';
          } else if (c === ',') break;
          else if (c === '(') {
            current += c;
            state = 'parens';
          } else current += c;
        } else if (state === 'parens') {
          current += c;
          if (c === ')') state = 'in';
        } else if (!space(c)) {
          state = 'in';
          pos--;
        }
      }
      if (current) descriptors.push(current);
    }
    const match = /^(\d+(?:\.\d+)?)([wx])$/i.exec(descriptors[0] ?? '1x');
    out.push({ url, size: match ? Number(match[1]) : 1, unit: match?.[2]?.toLowerCase() === 'w' ? 'w' : 'x' });
  }
}

/** A deterministic generator of srcset-like strings over the characters that matter. */
function* samples(count: number): Generator<string> {
  const alphabet = ['a.png', 'b.jpg', ' ', ',', '(', ')', '1x', '2x', '480w', '\n', 'x', '0.5x', 'w=4,h=3'];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
  for (let i = 0; i < count; i++) {
    let s = '';
    const length = next() % 14;
    for (let j = 0; j < length; j++) s += alphabet[next() % alphabet.length];
    yield s;
  }
}

describe('parseSrcset', () => {
  it("keeps a URL's commas: an image service's parameters, a data: URL", () => {
    // Before: split at every comma followed by text, so `fit:max/…` and `AAAA` came out as images of their own.
    expect(
      parseSrcset(
        'https://cdn.test/resize=width:400,fit:max/abc?dpr=1 1x, https://cdn.test/resize=width:400,fit:max/abc?dpr=2 2x',
      ),
    ).toEqual([
      { url: 'https://cdn.test/resize=width:400,fit:max/abc?dpr=1', size: 1, unit: 'x' },
      { url: 'https://cdn.test/resize=width:400,fit:max/abc?dpr=2', size: 2, unit: 'x' },
    ]);
    expect(parseSrcset('data:image/png;base64,AAAA 1x, b.png 2x').map((c) => c.url)).toEqual([
      'data:image/png;base64,AAAA',
      'b.png',
    ]);
    expect(parseSrcset('a.png 480w,b.png 800w , c.png 1200w').map((c) => [c.url, c.size])).toEqual([
      ['a.png', 480],
      ['b.png', 800],
      ['c.png', 1200],
    ]);
    // a comma ending the URL ends the candidate; a comma inside a descriptor's parentheses does not
    expect(parseSrcset('a.png,, b.png 2x,').map((c) => c.url)).toEqual(['a.png', 'b.png']);
    expect(parseSrcset('a.png foo(1, 2) 2x, c.png 3x').map((c) => c.url)).toEqual(['a.png', 'c.png']);
  });

  it("agrees with the standard's algorithm on generated attributes", () => {
    for (const srcset of samples(5_000)) expect(parseSrcset(srcset), srcset).toEqual(specParse(srcset));
  });

  it('reads every candidate of a 20,000-candidate attribute', () => {
    const candidates = parseSrcset(`${'a.png 1x,'.repeat(20_000)}b.png 2x`);
    expect(candidates).toHaveLength(20_001);
    expect(candidates.at(-1)).toMatchObject({ url: 'b.png', size: 2, unit: 'x' });
  });
});

describe('isWhitespace', () => {
  it('agrees with /\\s/ on every UTF-16 code unit', () => {
    const differ: number[] = [];
    for (let c = 0; c <= 0xffff; c++) if (isWhitespace(c) !== /\s/.test(String.fromCharCode(c))) differ.push(c);
    expect(differ).toEqual([]);
  });
});
