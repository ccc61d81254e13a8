// Pages in other scripts and legacy charsets, scraped through the public API.
import { describe, expect, it } from 'vitest';

import { data } from './helpers/scrape.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';

const env = useFixtureEngine();

describe('foreign pages', () => {
  it('reads a legacy page by its own charset when the server labels it UTF-8 and its bytes are not UTF-8', async () => {
    const doc = data(await env.ck.scrape({ url: `${env.server.url}/http/shift-jis-labelled-utf8` }));
    expect(doc.metadata.title).toBe('日本語のページ');
    expect(doc.markdown).toContain('東京都渋谷区の天気は晴れ');
    expect(doc.markdown).not.toContain('\uFFFD');
  });

  it('keeps the UTF-8 label over a UTF-8 page with one stray byte, whatever its meta says', async () => {
    const doc = data(
      await env.ck.scrape({ url: `${env.server.url}/http/utf8-labelled-utf8-stray-byte`, formats: ['html'] }),
    );
    expect(doc.metadata.title).toBe('日本語');
    expect(doc.html).toContain('caf\uFFFD 東京都渋谷区');
  });

  it('ends the extractive summary of a Thai article between two phrases, never inside one', async () => {
    const doc = data(
      await env.ck.scrape({ url: `${env.server.url}/http/thai-article`, formats: ['markdown', 'summary'] }),
    );
    const summary = doc.summary!;
    expect(summary.length).toBeGreaterThan(400);
    expect(summary.length).toBeLessThanOrEqual(600);
    // The summary is the article's text up to a space between phrases: the markdown goes on with a space after it.
    const text = doc.markdown!.replace(/^#.*$/m, '').replace(/\s+/g, ' ').trim();
    expect(text.startsWith(summary)).toBe(true);
    expect(text[summary.length]).toBe(' ');
  });

  it.each(['windows-1251-lang', 'windows-1251-content-language'])(
    'reads a short windows-1251 page that declares no charset by its language (%s)',
    async (route) => {
      const doc = data(await env.ck.scrape({ url: `${env.server.url}/http/${route}` }));
      expect(doc.metadata.title).toBe('Контакты');
      expect(doc.markdown).toContain('Вход и цены');
    },
  );
});
