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

  it.each(['windows-1251-lang', 'windows-1251-content-language'])(
    'reads a short windows-1251 page that declares no charset by its language (%s)',
    async (route) => {
      const doc = data(await env.ck.scrape({ url: `${env.server.url}/http/${route}` }));
      expect(doc.metadata.title).toBe('Контакты');
      expect(doc.markdown).toContain('Вход и цены');
    },
  );
});
