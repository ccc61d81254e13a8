import { describe, expect, it } from 'vitest';
import { textDecoder, type TextDecoding } from './text-decoder.js';

/** Bytes 0x80-0x9F as the Encoding Standard's windows-1252 index has them (five undefined: C1 controls). */
const WINDOWS_1252 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';
const high = Uint8Array.from({ length: 32 }, (_, i) => 0x80 + i);
const all = Uint8Array.from({ length: 256 }, (_, i) => i);

/** What Node 22.16's windows-1252 decoder does: ISO-8859-1. */
const latin1Node = (label: string): TextDecoding => {
  const decoder = new TextDecoder(label);
  if (decoder.encoding !== 'windows-1252') return decoder;
  return { encoding: 'windows-1252', decode: (bytes) => Buffer.from(bytes).toString('latin1') };
};

describe('textDecoder', () => {
  it("decodes windows-1252's bytes 0x80-0x9F as its characters, under each label a page gives it", () => {
    for (const label of ['windows-1252', 'ISO-8859-1', 'latin1', 'us-ascii']) {
      expect(textDecoder(label).decode(high), label).toBe(WINDOWS_1252);
      expect(textDecoder(label).encoding).toBe('windows-1252');
    }
  });

  it('maps them after a Node decoder that reads windows-1252 as ISO-8859-1, leaving every other byte as it was', () => {
    expect(latin1Node('windows-1252').decode(high)).not.toBe(WINDOWS_1252);
    const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
    expect(textDecoder('windows-1252', latin1Node).decode(all)).toBe(
      latin1(all.subarray(0, 0x80)) + WINDOWS_1252 + latin1(all.subarray(0xa0)),
    );
    expect(textDecoder('windows-1252', latin1Node).decode(Uint8Array.of(0x93, 0x63, 0x61, 0x66, 0xe9, 0x94))).toBe(
      '“café”',
    );
  });

  it("leaves other encodings to Node's decoder, and refuses a label that is not the standard's", () => {
    expect(textDecoder('windows-1251').decode(Uint8Array.of(0x80))).toBe('Ђ');
    expect(() => textDecoder('no-such-charset')).toThrow(RangeError);
  });
});
