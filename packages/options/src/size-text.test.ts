import { describe, expect, it } from 'vitest';

import { sizeText } from './size-text.js';

const MIB = 1024 * 1024;

describe('sizeText', () => {
  it('words bytes under 1 MiB, whole MiB as such, and other sizes in MiB with their bytes', () => {
    expect(sizeText(0)).toBe('0 bytes');
    expect(sizeText(100_000)).toBe('100000 bytes');
    expect(sizeText(MIB - 1)).toBe('1048575 bytes');
    expect(sizeText(MIB)).toBe('1 MiB');
    expect(sizeText(50 * MIB)).toBe('50 MiB');
    expect(sizeText(50 * MIB + 1)).toBe('50.0 MiB (52428801 bytes)');
    expect(sizeText(1.25 * MIB)).toBe('1.3 MiB (1310720 bytes)');
  });

  it('never words two different sizes the same: a size one byte either side of a limit is not the limit', () => {
    // The rule it replaced (MiB rounded to a tenth) said "0.1 MiB, larger than the 0.1 MiB" of 100,001 and 100,000.
    for (const limit of [100_000, MIB - 1, MIB, 5 * MIB, 50 * MIB, 100 * MIB + 7, 2 ** 31]) {
      const texts = new Set([limit - 1, limit, limit + 1].map(sizeText));
      expect(texts.size, `around ${limit}`).toBe(3);
    }
  });
});
