import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { imageDamage } from './image-damage.js';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../__fixtures__/${name}`, import.meta.url)));

describe('imageDamage', () => {
  it.each(['screenshot.png', 'screenshot.jpg', 'screenshot.webp', 'screenshot.tif'])('finds %s whole', (name) => {
    expect(imageDamage(fixture(name))).toBeUndefined();
  });

  it.each([
    ['screenshot.png', /^the PNG is damaged \(the file ends inside its IDAT chunk \(a cut download\?\)\)$/],
    ['screenshot.jpg', /^the JPEG is damaged \(the file ends before its end-of-image marker \(a cut download\?\)\)$/],
    ['screenshot.webp', /^the WebP is damaged \(the file has \d+ of the 7586 bytes it states \(a cut download\?\)\)$/],
    ['screenshot.tif', /^the TIFF is damaged \(its directory is past the end of the file \(a cut download\?\)\)$/],
  ])('finds %s cut in half', (name, why) => {
    const whole = fixture(name);
    expect(imageDamage(whole.subarray(0, whole.length / 2))).toMatch(why);
  });

  it('finds a cut at every tenth of each file, and a JPEG with bytes after its end marker whole', () => {
    for (const name of ['screenshot.png', 'screenshot.jpg', 'screenshot.webp', 'screenshot.tif']) {
      const whole = fixture(name);
      for (let tenth = 1; tenth < 10; tenth++) {
        expect(
          imageDamage(whole.subarray(0, Math.floor((whole.length * tenth) / 10))),
          `${name} ${tenth}`,
        ).toBeDefined();
      }
    }
    const jpeg = fixture('screenshot.jpg');
    const padded = new Uint8Array(jpeg.length + 16);
    padded.set(jpeg);
    expect(imageDamage(padded)).toBeUndefined();
  });

  it('leaves other bytes to the decoder', () => {
    expect(imageDamage(new TextEncoder().encode('GIF89a…'))).toBeUndefined();
  });
});
