import { describe, expect, it } from 'vitest';

import { lazyImagesMs, pagePictures } from './pixel-needs.js';

const PIXELS = ['font', 'image', 'media'];

describe('pagePictures: one decision of what a page load shows', () => {
  it('a page taking no picture shows no pixels: its images, media and fonts are dropped, nothing is captured', () => {
    for (const request of [{}, { actions: [{ type: 'click' as const, selector: 'a' }] }, { loadImages: false }]) {
      const pictures = pagePictures(request);
      expect(pictures).toMatchObject({ screenshot: undefined, showsPixels: false });
      expect([...pictures.droppedTypes].sort()).toEqual(PIXELS);
      expect(lazyImagesMs(pictures, 5_000)).toBe(0);
    }
  });

  it('the screenshot format is captured, with the page shown and its lazy images given the time left', () => {
    const pictures = pagePictures({ screenshot: { fullPage: true } });
    expect(pictures).toMatchObject({ screenshot: { fullPage: true }, showsPixels: true });
    expect(pictures.droppedTypes.size).toBe(0);
    expect(lazyImagesMs(pictures, 5_000)).toBe(5_000);
    expect(lazyImagesMs(pictures, -20)).toBe(0);
  });

  it('a screenshot or pdf action and a caller that measures images show pixels without the format capture', () => {
    const needs = [{ actions: [{ type: 'screenshot' as const }] }, { actions: [{ type: 'pdf' as const }] }];
    for (const request of [...needs, { loadImages: true }]) {
      const pictures = pagePictures(request);
      expect(pictures).toMatchObject({ screenshot: undefined, showsPixels: true });
      expect(pictures.droppedTypes.size).toBe(0);
    }
  });
});
