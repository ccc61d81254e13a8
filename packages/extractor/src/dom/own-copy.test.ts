import { describe, expect, it } from 'vitest';

import { ownCopy } from './own-copy.js';

describe('ownCopy', () => {
  it('gives the same text back, whatever it holds', () => {
    for (const text of [
      '',
      'site-navigation main-menu',
      'é ü 中文 😀',
      'lone \uD800 surrogate \uDC00',
      '"\\\n\t\u0000',
    ]) {
      expect(ownCopy(text)).toBe(text);
    }
  });
});
