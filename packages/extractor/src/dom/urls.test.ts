import { describe, expect, it } from 'vitest';

import { isWhitespace, parseSrcset } from './urls.js';

/** The split `parseSrcset` replaced: right, but it rescans the rest of the attribute from every comma. */
const OLD_SPLIT = /,(?=\s*\S)(?![^(]*\))/;

function oldParse(srcset: string): { url: string; size: number; unit: 'w' | 'x' }[] {
  const out: { url: string; size: number; unit: 'w' | 'x' }[] = [];
  for (const part of srcset.split(OLD_SPLIT)) {
    const [url, descriptor] = part.trim().split(/\s+/, 2);
    if (!url) continue;
    const match = /^(\d+(?:\.\d+)?)([wx])$/i.exec(descriptor ?? '1x');
    out.push({ url, size: match ? Number(match[1]) : 1, unit: match?.[2]?.toLowerCase() === 'w' ? 'w' : 'x' });
  }
  return out;
}

/** A deterministic generator of srcset-like strings over the characters that matter. */
function* samples(count: number): Generator<string> {
  const alphabet = ['a.png', 'b.jpg', ' ', ',', '(', ')', '1x', '2x', '480w', '\n', 'x', '0.5x'];
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
  it('splits candidates exactly as the lookahead regex did', () => {
    const fixed = [
      'a.png 1x, b.png 2x',
      'a.png 480w,b.png 800w , c.png 1200w',
      'image(a,b).png 1x, c.png 2x',
      'a.png,, b.png 2x,',
      'data:image/png;base64,AAAA 1x, b.png 2x',
      'a(.png 1x, b).png 2x, c.png 3x',
    ];
    for (const srcset of [...fixed, ...samples(5_000)]) {
      expect(parseSrcset(srcset), srcset).toEqual(oldParse(srcset));
    }
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
