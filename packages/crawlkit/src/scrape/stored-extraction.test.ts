import { createMemoryStore } from '@crawlkit/store';
import { describe, expect, it } from 'vitest';

import { contentHash, foldHash } from '../changes/content-hash.js';
import { VERSION } from '../cli/version.js';
import { storedExtractionCodec } from '../codec/records.js';
import type { ExtractionSettings } from '../extraction/extraction.js';
import type { ScrapeState } from './scrape-state.js';
import { readStoredExtraction, storedExtractionKey, writeStoredExtraction } from './stored-extraction.js';

/** The parts of a scrape's state the key reads: a writable cache entry of a page fetched with validators. */
const state = {
  store: {},
  cache: { key: 'page-key', writable: true },
  page: { fetchedAt: 1, cachePolicy: {} },
} as unknown as ScrapeState;
const settings = { onlyMainContent: true, needs: { markdown: true } } as unknown as ExtractionSettings;

describe('storedExtractionKey', () => {
  it("is the page's key and a digest of the settings and crawlkit's version", () => {
    const key = storedExtractionKey(state, settings);
    expect(key).toMatch(/^page-key\|extraction=[0-9a-f]{16}$/);
    expect(storedExtractionKey(state, settings, VERSION)).toBe(key);
    expect(storedExtractionKey(state, { ...settings, onlyMainContent: false })).not.toBe(key);
  });

  it("is the same for a crawl's settings, which ask for the content's hashes: they are not kept with it", () => {
    expect(storedExtractionKey(state, { ...settings, hashContent: true })).toBe(storedExtractionKey(state, settings));
  });

  it('changes with the version: an upgraded crawlkit extracts a confirmed copy again', () => {
    expect(storedExtractionKey(state, settings, '0.1.0')).not.toBe(storedExtractionKey(state, settings, '0.2.0'));
  });

  it('keeps nothing for rawHtml, an unwritable entry or a page without validators', () => {
    expect(storedExtractionKey(state, { ...settings, rawHtml: true })).toBeUndefined();
    expect(
      storedExtractionKey({ ...state, cache: { key: 'k', readable: true, writable: false } }, settings),
    ).toBeUndefined();
    expect(
      storedExtractionKey({ ...state, page: { fetchedAt: 1 } } as unknown as ScrapeState, settings),
    ).toBeUndefined();
  });
});

describe('writeStoredExtraction', () => {
  it("keeps the search text by its digest alone: the text is its markdown's, made again when read", async () => {
    const store = createMemoryStore();
    const extraction = {
      markdown: '# Plane',
      metadata: {},
      warnings: [],
      searchText: 'Plane',
      searchTextDigest: 'digest',
    };
    const kept = { ...state, store, normalizedUrl: 'page' } as unknown as ScrapeState;
    await writeStoredExtraction(kept, 'page|extraction=x', 1, extraction);
    const read = await readStoredExtraction(store, 'page|extraction=x', 1);
    expect(read!.extraction).toEqual({ markdown: '# Plane', metadata: {}, warnings: [], searchTextDigest: 'digest' });
    expect(read!.contentHash).toBe(kept.contentHash);
    await store.close();
  });

  it("keeps a crawl page's extraction as before its hashes came with it: the content hash beside it, made once", async () => {
    const store = createMemoryStore();
    const markdown = '# A topic\n\n12 views';
    const made = { markdown, metadata: {}, warnings: [], canonical: 'https://example.com/t' };
    const hashed = { ...made, contentHash: contentHash(markdown), foldHash: foldHash(markdown) };
    const kept = { ...state, store, normalizedUrl: 'page' } as unknown as ScrapeState;
    await writeStoredExtraction(kept, 'page|extraction=x', 1, hashed);
    const value = (await store.pages.get('page|extraction=x'))!.value;
    expect(value).toBe(
      storedExtractionCodec.encode({ fetchedAt: 1, contentHash: contentHash(markdown), extraction: made }),
    );
    expect(kept.contentHash).toBe(contentHash(markdown));
    await store.close();
  });
});
