import { describe, expect, it } from 'vitest';

import { readCaptureUrl, toCaptureUrl } from './capture-url.js';

describe('capture URLs', () => {
  it('reads back what it writes, for images and PDFs', () => {
    const bytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x0a, 0xff]);
    for (const mimeType of ['image/png', 'image/jpeg', 'image/svg+xml', 'application/pdf']) {
      const read = readCaptureUrl(toCaptureUrl(bytes, mimeType));
      expect(read?.mimeType).toBe(mimeType);
      expect(Buffer.from(read!.base64, 'base64')).toEqual(Buffer.from(bytes));
    }
  });

  it('leaves any other string alone', () => {
    for (const value of [
      'data:text/plain;base64,aGk=',
      'data:image/png,raw',
      'https://a.test/x.png',
      'data:application/zip;base64,UEs=',
    ]) {
      expect(readCaptureUrl(value)).toBeUndefined();
    }
  });
});
