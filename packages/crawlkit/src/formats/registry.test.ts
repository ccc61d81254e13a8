import { describe, expect, it } from 'vitest';

import { scrapeRequestSchema, type ScrapeRequestInput } from '../v2/scrape-options.js';
import {
  extractionNeeds,
  featureNeedingModel,
  FORMAT_MODULES,
  formatCredits,
  formatsCacheKey,
  formatsReadCache,
  formatsWriteCache,
  shapeFetch,
} from './registry.js';

const formats = (list: NonNullable<ScrapeRequestInput['formats']>) =>
  scrapeRequestSchema.parse({ url: 'https://example.com', formats: list }).formats;

describe('the format registry', () => {
  it('has one module per format type, each with a strict schema', () => {
    const types = FORMAT_MODULES.map((m) => m.type);
    expect(new Set(types).size).toBe(types.length);
    for (const module of FORMAT_MODULES) {
      expect(module.schema.safeParse({ type: module.type, unknownOption: 1 }).success).toBe(false);
    }
  });

  it('asks extraction for what the formats read, markdown included for the formats computed from it', () => {
    expect(extractionNeeds(formats(['links']))).toMatchObject({ markdown: false, links: true, html: false });
    expect(extractionNeeds(formats(['summary']))).toMatchObject({ markdown: true });
    expect(extractionNeeds(formats(['rawHtml', 'images']))).toMatchObject({ rawHtml: true, images: true });
    const selectors = [{ selector: 'a', attribute: 'href' }];
    expect(extractionNeeds(formats([{ type: 'attributes', selectors }])).attributes).toEqual(selectors);
  });

  it('names the feature that needs a model', () => {
    expect(featureNeedingModel(formats(['markdown', 'summary']))).toBeUndefined();
    expect(featureNeedingModel(formats([{ type: 'json', prompt: 'x' }]))).toBe('json format');
    expect(featureNeedingModel(formats(['markdown', { type: 'changeTracking', modes: ['json'] }]))).toBe(
      'changeTracking json mode',
    );
    expect(featureNeedingModel(formats(['markdown', { type: 'changeTracking', modes: ['git-diff'] }]))).toBeUndefined();
    // Formats are visited in production order (the registry's), whatever the request's order.
    expect(
      featureNeedingModel(
        formats([{ type: 'changeTracking', modes: ['json'] }, 'markdown', { type: 'json', prompt: 'x' }]),
      ),
    ).toBe('json format');
  });

  it('lets formats shape the fetch: a screenshot, the browser and a collector for branding', () => {
    const request: Parameters<typeof shapeFetch>[1] = { url: 'https://example.com' };
    shapeFetch(formats([{ type: 'screenshot', fullPage: true, quality: 80 }, 'branding']), request);
    expect(request.screenshot).toEqual({ fullPage: true, quality: 80 });
    expect(request.engine).toBe('browser');
    expect(request.actions).toHaveLength(1);
  });

  it('keeps a fresh page for change tracking and branding, and a screenshot with its own settings out of the cache', () => {
    expect(formatsReadCache(formats(['markdown', 'screenshot']))).toBe(true);
    expect(formatsReadCache(formats(['markdown', 'changeTracking']))).toBe(false);
    expect(formatsReadCache(formats(['branding']))).toBe(false);
    expect(formatsReadCache(formats([{ type: 'screenshot', quality: 50 }]))).toBe(false);
    expect(formatsWriteCache(formats([{ type: 'screenshot', viewport: { width: 800, height: 600 } }]))).toBe(false);
    expect(formatsCacheKey(formats(['markdown']))).toEqual(['shot=none']);
    expect(formatsCacheKey(formats([{ type: 'screenshot', fullPage: true }]))).toEqual(['shot=full']);
  });

  it('bills 1 a page, 5 with a json extraction (the highest base wins)', () => {
    expect(formatCredits(formats(['markdown', 'summary']))).toBe(1);
    expect(formatCredits(formats([{ type: 'json', prompt: 'x' }]))).toBe(5);
    expect(
      formatCredits(formats([{ type: 'json', prompt: 'x' }, 'markdown', { type: 'changeTracking', modes: ['json'] }])),
    ).toBe(5);
  });
});
