/**
 * A multilingual index keys its analysers on `metadata.language`. A page that names its language only in its
 * response's `Content-Language` header or a `<meta http-equiv="content-language">`, not in `<html lang>`, had no
 * `language` at all: the HTML standard reads the document's language from the three, in that order.
 */
import type { ServerResponse } from 'node:http';

import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { startRouteSite } from './helpers/route-site.ts';

const body = '<title>東京の天気</title><main><h1>今日の東京</h1><p>晴れのち曇り、夜は小雨の見込みです。</p></main>';
let site: FixtureServer;
let ck: Crawlkit;

beforeAll(async () => {
  const send = (headers: Record<string, string>, html: string) => (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
    res.end(html);
  };
  site = await startRouteSite({
    '/header': send({ 'content-language': 'ja' }, `<!doctype html><html>${body}</html>`),
    '/pragma': send({}, `<!doctype html><html><meta http-equiv="content-language" content="ja-JP">${body}</html>`),
    '/lang-wins': send({ 'content-language': 'de' }, `<!doctype html><html lang="ja">${body}</html>`),
    '/list': send({ 'content-language': 'de, ja' }, `<!doctype html><html>${body}</html>`),
  });
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await site.close();
});

async function language(path: string): Promise<string | undefined> {
  const page = await ck.scrape({ url: `${site.url}${path}`, formats: ['markdown'] });
  if (!page.success) throw new Error(page.error);
  return page.data.metadata.language;
}

describe('metadata.language of a page without <html lang>', () => {
  it('is the Content-Language header, or the http-equiv pragma, when <html lang> names none', async () => {
    expect(await language('/header')).toBe('ja');
    expect(await language('/pragma')).toBe('ja-JP');
    expect(await language('/lang-wins')).toBe('ja');
    expect(await language('/list')).toBeUndefined();
  });
});
