import { describe, expect, it } from 'vitest';

import { canonicalJson, memoizedParser } from './parse-memo.js';
import { scrapeRequestSchema } from './scrape-options.js';

describe('canonicalJson', () => {
  it('is the same for the same body in any key order', () => {
    expect(canonicalJson({ b: [1, { y: 'x', x: null }], a: true })).toBe(
      canonicalJson({ a: true, b: [1, { x: null, y: 'x' }] }),
    );
  });

  it('refuses what JSON would not say exactly', () => {
    for (const body of [
      { url: 'https://a.example', timeout: undefined },
      { url: 'https://a.example', when: new Date(0) },
      { n: Number.NaN },
      { n: -0 },
      { list: [1, , 3] }, // eslint-disable-line no-sparse-arrays
      { fn: () => 1 },
      { long: 'x'.repeat(40_000) },
    ]) {
      expect(canonicalJson(body)).toBeUndefined();
    }
  });
});

describe('memoizedParser', () => {
  it('validates a repeated body once and shares a frozen value', () => {
    const parse = memoizedParser(scrapeRequestSchema);
    const first = parse({ url: 'https://a.example/', formats: ['markdown'] });
    const again = parse({ formats: ['markdown'], url: 'https://a.example/' });
    expect(first.ok && again.ok).toBe(true);
    if (!first.ok || !again.ok) return;
    expect(again.value).toBe(first.value);
    expect(Object.isFrozen(first.value.formats)).toBe(true);
  });

  it('still refuses a body that differs only by an undefined unknown key', () => {
    const parse = memoizedParser(scrapeRequestSchema);
    expect(parse({ url: 'https://a.example/' }).ok).toBe(true);
    const refused = parse({ url: 'https://a.example/', nope: undefined });
    expect(refused.ok).toBe(false);
  });

  it('gives each refused body its own error', () => {
    const parse = memoizedParser(scrapeRequestSchema);
    const a = parse({ url: 'https://a.example/', timeout: -1 });
    const b = parse({ url: 'https://a.example/', timeout: 'soon' });
    expect(a.ok || b.ok).toBe(false);
    if (a.ok || b.ok) return;
    expect(a.error.error).not.toBe(b.error.error);
  });
});
