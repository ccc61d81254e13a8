import { describe, expect, it } from 'vitest';

import { buildContent, contentSettings, type ContentOptions, type FetchedContent } from './content.js';
import { ContentMemo } from './content-memo.js';
import { serializeFetched, storedLength } from './serialize.js';

const fetched = (serial: number): FetchedContent => ({
  url: 'https://example.com/a',
  status: 200,
  contentType: 'text/html',
  headers: {},
  engine: 'http',
  proxyUsed: 'basic',
  text: `<html><head><title>T</title></head><body><nav><a href="/nav">Nav</a></nav><main><h1>Head</h1><p>Body text of the page number ${serial}.</p><a href="/x">x</a></main></body></html>`,
});

const options = (overrides: Partial<ContentOptions> = {}): ContentOptions => ({
  formats: [{ type: 'markdown' }, { type: 'links' }],
  onlyMainContent: true,
  removeBase64Images: true,
  parsers: [{ type: 'pdf' }],
  ...overrides,
});

/** The real extraction, counting its runs. */
function counting(page: FetchedContent, o: ContentOptions) {
  const counter = { runs: 0, build: () => (counter.runs++, buildContent(page, o)) };
  return counter;
}

describe('ContentMemo', () => {
  it('parses an entry once per version and extracts once per content options', async () => {
    const memo = new ContentMemo();
    const value = serializeFetched(fetched(1));
    const version = { cachedAt: 1_000, length: storedLength(value) };
    const page = memo.fetched('k', { cachedAt: 1_000, ...value });
    expect(memo.fetched('k', { cachedAt: 1_000, ...value })).toBe(page);

    const a = counting(page, options());
    const first = await memo.content('k', version, contentSettings(options()), a.build);
    const second = await memo.content('k', version, contentSettings(options()), a.build);
    expect(a.runs).toBe(1);
    expect(second).toEqual(first);
    expect(second.markdown).toContain('page number 1');

    const wide = options({ onlyMainContent: false, formats: [{ type: 'html' }] });
    const b = counting(page, wide);
    const html = await memo.content('k', version, contentSettings(wide), b.build);
    expect(b.runs).toBe(1);
    expect(html.html).toContain('Nav');
    expect((await memo.content('k', version, contentSettings(wide), b.build)).html).toBe(html.html);
    expect(b.runs).toBe(1);
  });

  it('drops what it knew when the entry is rewritten (another cachedAt or size)', async () => {
    const memo = new ContentMemo();
    const one = serializeFetched(fetched(1));
    memo.fetched('k', { cachedAt: 1_000, ...one });
    await memo.content('k', { cachedAt: 1_000, length: storedLength(one) }, contentSettings(options()), () =>
      buildContent(fetched(1), options()),
    );
    const two = serializeFetched(fetched(2));
    expect(memo.fetched('k', { cachedAt: 2_000, ...two }).text).toContain('page number 2');
    const rebuilt = counting(fetched(2), options());
    const content = await memo.content(
      'k',
      { cachedAt: 2_000, length: storedLength(two) },
      contentSettings(options()),
      rebuilt.build,
    );
    expect(rebuilt.runs).toBe(1);
    expect(content.markdown).toContain('page number 2');
  });

  it('hands out copies: changing a returned content does not change the memo', async () => {
    const memo = new ContentMemo();
    const value = serializeFetched(fetched(1));
    const version = { cachedAt: 1, length: storedLength(value) };
    const page = memo.fetched('k', { cachedAt: 1, ...value });
    const first = await memo.content('k', version, contentSettings(options()), () => buildContent(page, options()));
    const links = [...first.links!];
    first.links!.length = 0;
    first.warnings.push('changed');
    const again = await memo.content('k', version, contentSettings(options()), () => buildContent(page, options()));
    expect(again.links).toEqual(links);
    expect(again.warnings).toEqual([]);
  });

  it('does not keep an extraction that the budget cut (its plain-text fallback)', async () => {
    const memo = new ContentMemo();
    const value = serializeFetched(fetched(1));
    const version = { cachedAt: 1, length: storedLength(value) };
    const page = memo.fetched('k', { cachedAt: 1, ...value });
    let runs = 0;
    const build = async () => (runs++, { ...(await buildContent(page, options())), cut: true as const });
    await memo.content('k', version, contentSettings(options()), build);
    await memo.content('k', version, contentSettings(options()), build);
    expect(runs).toBe(2);
  });

  it('keeps nothing for keys it has not parsed (a write it was not told about)', async () => {
    const memo = new ContentMemo();
    let runs = 0;
    const build = () => (runs++, buildContent(fetched(1), options()));
    await memo.content('unknown', { cachedAt: 1, length: 10 }, contentSettings(options()), build);
    await memo.content('unknown', { cachedAt: 1, length: 10 }, contentSettings(options()), build);
    expect(runs).toBe(2);
  });
});
