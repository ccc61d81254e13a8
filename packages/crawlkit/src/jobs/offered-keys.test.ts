import { describe, expect, it } from 'vitest';

import { OfferedKeys } from './offered-keys.js';

const task = (key: string) => ({ key, url: `https://example.com/${key}`, depth: 1 });

describe('OfferedKeys', () => {
  it('lets through only the keys never offered, and remembers at most its bound', () => {
    const keys = new OfferedKeys(3);
    expect(keys.fresh([task('a'), task('b')]).map((t) => t.key)).toEqual(['a', 'b']);
    keys.offered([task('a'), task('b')]);
    expect(keys.fresh([task('b'), task('c'), task('a')]).map((t) => t.key)).toEqual(['c']);
    keys.offered([task('c'), task('d'), task('e')]);
    // Past the bound, keys go to the store's own de-duplication again.
    expect(keys.fresh([task('c'), task('d'), task('e')]).map((t) => t.key)).toEqual(['d', 'e']);
  });
});
