import { describe, expect, it } from 'vitest';
import { parseSearchQuery } from '../search/query.js';
import type { PageCache, SearchHit } from '../types.js';
import { skipWithout, useStores, type StoreFactory } from './harness.js';

const PAGES: [key: string, title: string, text: string][] = [
  ['zh', '网络爬虫', '网络爬虫可以自动抓取网页内容。我住在北京，每天坐地铁上班。'],
  ['zh-kyoto', '旅行', '我们去京都看了很多寺庙。'],
  ['ja', '日本語', '東京都に住んでいます。このクローラーはウェブページを保存します。'],
  ['ko', '한국어', '서울에서 살고 있어요. 크롤러가 웹페이지를 저장합니다.'],
  ['th', 'ภาษาไทย', 'โปรแกรมนี้เก็บหน้าเว็บไว้ในฐานข้อมูล นักเรียนไปโรงเรียนทุกวัน'],
  ['mixed', 'Phones', 'Ein iPhone用のケース und ein Café.'],
  ['en', 'Crawling', 'The crawler stores every page it crawls.'],
  ['mixed-en', 'Notes', 'Crawls store the pages: 网页 saved.'],
  // Thai and Devanagari marks are letters of the word: ไข่ is an egg, ไข้ a fever; कमल a lotus, कमाल a wonder.
  ['th-egg', 'ไข่', 'แม่ซื้อไข่ไก่สด'],
  ['th-fever', 'ไข้', 'วันนี้ผมเป็นไข้หวัด'],
  ['hi-lotus', 'कमल', 'तालाब में कमल खिला है'],
  ['hi-wonder', 'कमाल', 'यह तो कमाल है'],
];

async function seed(store: PageCache): Promise<void> {
  for (const [i, [key, title, text]] of PAGES.entries()) {
    const url = `https://example.com/${key}`;
    await store.pages.put({ key, url, cachedAt: 1_000 + i, value: key, search: { url, title, description: '', text } });
  }
}

async function find(store: PageCache, q: string): Promise<SearchHit[]> {
  const parsed = parseSearchQuery(q);
  if (!parsed.ok) throw new Error(parsed.error);
  return store.search!.search({ terms: parsed.terms, limit: 10 });
}

const keys = async (store: PageCache, q: string) =>
  (await find(store, q)).map((hit) => hit.url.slice('https://example.com/'.length)).sort();

/** The search of scripts written without spaces between words: the same pages found by every driver. */
export function describeSearchScriptsConformance(factory: StoreFactory): void {
  describe('search in Chinese, Japanese, Korean and Thai', () => {
    const open = useStores(factory);
    skipWithout(factory, 'search'); // optional in the contract

    it('finds a word inside an unspaced sentence, with a snippet around it', async () => {
      const store = await open();
      await seed(store);
      expect(await keys(store, '地铁')).toEqual(['zh']);
      expect(await keys(store, '爬虫')).toEqual(['zh']);
      expect(await keys(store, 'クローラー')).toEqual(['ja']);
      expect(await keys(store, '保存')).toEqual(['ja']);
      // Korean is spaced, but its particles are glued to the word: 서울에서 is 서울 (Seoul) + 에서 (in).
      expect(await keys(store, '서울')).toEqual(['ko']);
      expect(await keys(store, '웹페이지')).toEqual(['ko']);
      expect(await keys(store, 'ฐานข้อมูล')).toEqual(['th']);
      expect(await keys(store, 'โรงเรียน')).toEqual(['th']);
      expect(await keys(store, 'iphone')).toEqual(['mixed']);
      expect(await keys(store, 'ケース')).toEqual(['mixed']);
      const [hit] = await find(store, '地铁');
      // A snippet holds 24 words: of Chinese, 48 characters (this whole text), not 24.
      expect(hit!.snippet).toBe('网络爬虫可以自动抓取网页内容。我住在北京，每天坐地铁上班。');
    });

    it('reads a bare run as its pairs, a quoted one as a phrase, a single character as a prefix', async () => {
      const store = await open();
      await seed(store);
      // 東京都 holds 京都 (Kyoto): the bare query finds both, the page with the whole word first.
      const hits = await find(store, '東京都');
      expect(hits.map((h) => h.url)).toEqual(['https://example.com/ja', 'https://example.com/zh-kyoto']);
      expect(await keys(store, '"東京都"')).toEqual(['ja']);
      expect(await keys(store, '"住在北京"')).toEqual(['zh']);
      expect(await keys(store, '"北京住在"')).toEqual([]);
      // A phrase across runs: the tail of the first run stands between them.
      expect(await keys(store, '"网页内容 我住在"')).toEqual(['zh']);
      // A character alone: at the start, inside and at the end of runs.
      expect(await keys(store, '京')).toEqual(['ja', 'zh', 'zh-kyoto']);
      expect(await keys(store, '庙')).toEqual(['zh-kyoto']);
      expect(await keys(store, '京 -"东京"')).toEqual(['ja', 'zh', 'zh-kyoto']);
      expect(await keys(store, '京 -京都')).toEqual(['zh']);
      expect(await keys(store, '"crawler stores"')).toEqual(['en']);
      // English beside unspaced script is stemmed and placed as English alone is (SQLite is handed its words).
      expect(await keys(store, 'crawling')).toEqual(['en', 'mixed-en']);
      expect(await keys(store, '"crawl stores" 网页')).toEqual(['mixed-en']);
    });

    it.each([
      // the marks that make a Thai or Indic word another word stay; the accents of Latin letters fold
      ['ไข้', ['th-fever']],
      ['ไข่', ['th-egg']],
      ['कमाल', ['hi-wonder']],
      ['कमल', ['hi-lotus']],
      ['"कमल खिला"', ['hi-lotus']],
      ['CAFE', ['mixed']],
      // the last character of a quoted phrase may begin a longer run (用 begins 用のケース), as a tail may end one
      ['"iPhone用"', ['mixed']],
      ['"ein iPhone用"', ['mixed']],
      ['"iPhone用 und"', []],
      ['iphone -"iPhone用"', []],
      ['"Crawls store the pages 网"', ['mixed-en']],
      ['"Crawls store the pages 页"', []],
    ])('finds %s in the pages it spells', async (query, expected) => {
      const store = await open();
      await seed(store);
      expect(await keys(store, query)).toEqual(expected);
    });
  });
}
