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

  describe("a link's query is sent in the page's charset, as a browser sends it (the path in UTF-8)", () => {
    it('lists the links of a windows-1252 page with their query in windows-1252', async () => {
      const doc = data(
        await env.ck.scrape({ url: `${env.server.url}/http/windows-1252-query-links`, formats: ['links'] }),
      );
      expect(doc.links).toEqual([
        `${env.server.url}/http/query-echo/%C3%BC?q=M%FCller&page=2#top`,
        `${env.server.url}/http/query-echo/plain?name=Jos%E9`,
      ]);
    });

    it("lists a Shift_JIS page's link in Shift_JIS, a character Shift_JIS lacks as its &#N;", async () => {
      const doc = data(
        await env.ck.scrape({ url: `${env.server.url}/http/shift-jis-query-links`, formats: ['links'] }),
      );
      // ソ is 83 5C: its trail byte stays a backslash, as in a browser
      expect(doc.links).toEqual([`${env.server.url}/http/query-echo/x?q=%83\\%93%8C%8B%9E%26%238364%3B&page=2`]);
    });

    it('crawls and maps the pages a browser would ask for', async () => {
      const url = `${env.server.url}/http/windows-1252-query-links`;
      // crawlEntireDomain: the echo pages are siblings of the page, not below it
      const started = await env.ck.crawl({ url, limit: 3, crawlEntireDomain: true, scrapeOptions: { maxAge: 0 } });
      if (!started.success) throw new Error(started.error);
      const crawl = await env.ck.waitForJob(started.id);
      if (!crawl.success) throw new Error(crawl.error);
      // each echo page's title is the request target the server was sent
      expect(crawl.data.map((d) => d.metadata.title).sort()).toEqual([
        '/http/query-echo/%C3%BC?q=M%FCller&page=2',
        '/http/query-echo/plain?name=Jos%E9',
        'Suche',
      ]);
      // map lists the pages without their query, and follows them as a browser would
      const map = await env.ck.map({ url, sitemap: 'skip', filterByPath: false });
      if (!map.success) throw new Error(map.error);
      expect(map.links.map((l) => l.title).sort()).toEqual([
        '/http/query-echo/%C3%BC?q=M%FCller&page=2',
        '/http/query-echo/plain?name=Jos%E9',
        'Suche',
      ]);
    });
  });
});
