/**
 * Search over pages written without spaces between words, as a user who scraped Chinese, Japanese, Korean and Thai
 * pages into a SQLite store meets it through `ck.search()`: a word inside a sentence finds its page, with the sentence
 * as its description and highlight.
 */
import type { LocalResult } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { startFixtureServer, type Routes } from '../fixtures/server.ts';
import { ok } from './helpers/crawl-site-run.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';

const pages: Record<string, [lang: string, title: string, body: string]> = {
  '/zh': ['zh', '城市生活', '我住在北京，每天坐地铁上班。周末我喜欢去公园散步，看看书。'],
  '/ja': ['ja', '東京の暮らし', '東京都に住んでいます。毎日電車で会社に行きます。週末は公園を散歩します。'],
  '/ko': ['ko', '서울 생활', '서울에서 살고 있어요. 매일 지하철을 타고 회사에 갑니다. 주말에는 공원을 산책해요.'],
  '/th': ['th', 'ชีวิตในเมือง', 'ฉันอาศัยอยู่ในกรุงเทพ ทุกวันฉันนั่งรถไฟฟ้าไปทำงาน วันหยุดฉันชอบเดินเล่นในสวนสาธารณะ'],
};
const routes: Routes = {
  '/*': (_req, res, ctx) => {
    const page = pages[ctx.url.pathname];
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    const [lang, title, body] = page;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<html lang="${lang}"><head><title>${title}</title></head>
      <body><main><h1>${title}</h1><p>${body}</p></main></body></html>`);
  },
};

const env = useFixtureEngine({
  server: () => startFixtureServer({ routes }),
  crawlkit: (dir) => ({ storeDir: dir, engine: 'http' }),
});

const search = async (query: string) => (ok(await env.ck.search({ query, limit: 10 })).data.web ?? []) as LocalResult[];

describe('search in scripts without spaces', () => {
  it('finds a word inside a sentence, showing the sentence', async () => {
    for (const path of Object.keys(pages)) ok(await env.ck.scrape({ url: `${env.server.url}${path}` }));
    const paths = async (query: string) => (await search(query)).map((r) => new URL(r.url).pathname);
    expect(await paths('地铁')).toEqual(['/zh']);
    expect(await paths('電車')).toEqual(['/ja']);
    expect(await paths('지하철')).toEqual(['/ko']);
    expect(await paths('รถไฟฟ้า')).toEqual(['/th']);
    expect(await paths('公园')).toEqual(['/zh']);
    expect(await paths('公園')).toEqual(['/ja']);
    const [zh] = await search('地铁');
    expect(zh!.title).toBe('城市生活');
    expect(zh!.description).toContain('每天坐地铁上班');
    expect(zh!.description).not.toContain('城市生活');
    expect(zh!.highlights).toBe('我住在北京，每天坐地铁上班。');
  });
});
