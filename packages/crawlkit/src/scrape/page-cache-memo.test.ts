import { describe, expect, it } from 'vitest';

import { extractPageInput } from '../extraction/extract-page.js';
import { scrapeRequestSchema, type ScrapeRequestInput } from '../v2/scrape-options.js';
import { extractionInput, extractionSettings } from './extraction-settings.js';
import type { FetchedPage } from './fetched-page.js';
import { PageCacheMemo } from './page-cache-memo.js';
import { serializeFetched, storedLength } from '../codec/page-record.js';

const fetched = (serial: number): FetchedPage => ({
  url: 'https://example.com/a',
  status: 200,
  contentType: 'text/html',
  headers: {},
  engine: 'http',
  proxyUsed: 'basic',
  text: `<html><head><title>T</title></head><body><nav><a href="/nav">Nav</a></nav><main><h1>Head</h1><p>Body text of the page number ${serial}.</p><a href="/x">x</a></main></body></html>`,
});

type Options = Omit<ScrapeRequestInput, 'url'>;

const options = (overrides: Options = {}): Options => ({ formats: ['markdown', 'links'], ...overrides });

/** The extraction settings of a request with these options. */
const contentSettings = (o: Options) =>
  extractionSettings(scrapeRequestSchema.parse({ url: 'https://example.com/a', ...o }), false);

/** The real extraction of `page` for these options. */
const buildContent = (page: FetchedPage, o: Options) =>
  extractPageInput({ page: extractionInput(page), settings: contentSettings(o) });

/** The real extraction, counting its runs. */
function counting(page: FetchedPage, o: Options) {
  const counter = { runs: 0, build: () => (counter.runs++, buildContent(page, o)) };
  return counter;
}

describe('PageCacheMemo', () => {
  it('parses an entry once per version and extracts once per content options', async () => {
    const memo = new PageCacheMemo();
    const value = serializeFetched(fetched(1));
    const version = { cachedAt: 1_000, length: storedLength(value) };
    const page = memo.fetched('k', { cachedAt: 1_000, ...value });
    expect(memo.fetched('k', { cachedAt: 1_000, ...value })).toBe(page);

    const a = counting(page, options());
    const first = await memo.extraction('k', version, contentSettings(options()), a.build);
    const second = await memo.extraction('k', version, contentSettings(options()), a.build);
    expect(a.runs).toBe(1);
    expect(second).toEqual(first);
    expect(second.markdown).toContain('page number 1');

    const wide = options({ onlyMainContent: false, formats: ['html'] });
    const b = counting(page, wide);
    const html = await memo.extraction('k', version, contentSettings(wide), b.build);
    expect(b.runs).toBe(1);
    expect(html.html).toContain('Nav');
    expect((await memo.extraction('k', version, contentSettings(wide), b.build)).html).toBe(html.html);
    expect(b.runs).toBe(1);
  });

  it('keeps no extraction its builder says not to keep (one read back from the page cache)', async () => {
    const memo = new PageCacheMemo();
    const value = serializeFetched(fetched(1));
    const version = { cachedAt: 1_000, length: storedLength(value) };
    const page = memo.fetched('k', { cachedAt: 1_000, ...value });
    const read = counting(page, options());
    await memo.extraction('k', version, contentSettings(options()), read.build, () => false);
    await memo.extraction('k', version, contentSettings(options()), read.build, () => false);
    expect(read.runs).toBe(2);
    await memo.extraction('k', version, contentSettings(options()), read.build);
    await memo.extraction('k', version, contentSettings(options()), read.build);
    expect(read.runs).toBe(3);
  });

  it('drops what it knew when the entry is rewritten (another cachedAt or size)', async () => {
    const memo = new PageCacheMemo();
    const one = serializeFetched(fetched(1));
    memo.fetched('k', { cachedAt: 1_000, ...one });
    await memo.extraction('k', { cachedAt: 1_000, length: storedLength(one) }, contentSettings(options()), () =>
      buildContent(fetched(1), options()),
    );
    const two = serializeFetched(fetched(2));
    expect(memo.fetched('k', { cachedAt: 2_000, ...two }).text).toContain('page number 2');
    const rebuilt = counting(fetched(2), options());
    const content = await memo.extraction(
      'k',
      { cachedAt: 2_000, length: storedLength(two) },
      contentSettings(options()),
      rebuilt.build,
    );
    expect(rebuilt.runs).toBe(1);
    expect(content.markdown).toContain('page number 2');
  });

  it('hands out copies: changing a returned content does not change the memo', async () => {
    const memo = new PageCacheMemo();
    const value = serializeFetched(fetched(1));
    const version = { cachedAt: 1, length: storedLength(value) };
    const page = memo.fetched('k', { cachedAt: 1, ...value });
    const first = await memo.extraction('k', version, contentSettings(options()), () => buildContent(page, options()));
    const links = [...first.links!];
    first.links!.length = 0;
    first.warnings.push('changed');
    const again = await memo.extraction('k', version, contentSettings(options()), () => buildContent(page, options()));
    expect(again.links).toEqual(links);
    expect(again.warnings).toEqual([]);
  });

  it('does not keep an extraction that the budget cut (its plain-text fallback)', async () => {
    const memo = new PageCacheMemo();
    const value = serializeFetched(fetched(1));
    const version = { cachedAt: 1, length: storedLength(value) };
    const page = memo.fetched('k', { cachedAt: 1, ...value });
    let runs = 0;
    const build = async () => (runs++, { ...(await buildContent(page, options())), cut: true as const });
    await memo.extraction('k', version, contentSettings(options()), build);
    await memo.extraction('k', version, contentSettings(options()), build);
    expect(runs).toBe(2);
  });

  it('keeps nothing for keys it has not parsed (a write it was not told about)', async () => {
    const memo = new PageCacheMemo();
    let runs = 0;
    const build = () => (runs++, buildContent(fetched(1), options()));
    await memo.extraction('unknown', { cachedAt: 1, length: 10 }, contentSettings(options()), build);
    await memo.extraction('unknown', { cachedAt: 1, length: 10 }, contentSettings(options()), build);
    expect(runs).toBe(2);
  });
});
