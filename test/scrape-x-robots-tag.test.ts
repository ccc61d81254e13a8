/**
 * An SEO audit reads which pages are kept out of search engines' indexes: by a `robots` meta tag (`metadata.robots`)
 * or by the response's `X-Robots-Tag` header, the only way a PDF says it. The header was nowhere in the document.
 */
import type { ServerResponse } from 'node:http';

import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makePdf } from '../fixtures/make-pdf.ts';
import type { FixtureServer } from '../fixtures/server.ts';
import { startRouteSite } from './helpers/route-site.ts';

const html = '<!doctype html><html lang="en"><title>Kept out</title><main><h1>Kept out</h1><p>Words.</p></main></html>';
let site: FixtureServer;
let ck: Crawlkit;

beforeAll(async () => {
  const send =
    (headers: [string, string][], body: string | Uint8Array, type = 'text/html; charset=utf-8') =>
    (_req: unknown, res: ServerResponse) => {
      res.setHeader('content-type', type);
      for (const [name, value] of headers) res.appendHeader(name, value);
      res.end(body);
    };
  site = await startRouteSite({
    '/noindex': send([['X-Robots-Tag', 'noindex, nofollow']], html),
    '/two': send(
      [
        ['X-Robots-Tag', 'noarchive'],
        ['X-Robots-Tag', 'googlebot: noindex'],
      ],
      html,
    ),
    '/plain': send([], html),
    '/report.pdf': send(
      [['X-Robots-Tag', 'noindex']],
      makePdf('Report', [['A report kept out of the index.']]),
      'application/pdf',
    ),
  });
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await site.close();
});

async function metadata(path: string) {
  const page = await ck.scrape({ url: `${site.url}${path}`, formats: ['markdown'] });
  if (!page.success) throw new Error(page.error);
  return page.data.metadata;
}

describe('metadata.xRobotsTag', () => {
  it("is the response's X-Robots-Tag header, repeated ones joined, on HTML and PDF, and from the page cache", async () => {
    expect((await metadata('/noindex')).xRobotsTag).toBe('noindex, nofollow');
    expect((await metadata('/two')).xRobotsTag).toBe('noarchive, googlebot: noindex');
    expect((await metadata('/report.pdf')).xRobotsTag).toBe('noindex');
    const plain = await metadata('/plain');
    expect(plain).not.toHaveProperty('xRobotsTag');
    const again = await metadata('/noindex');
    expect(again.cacheState).toBe('hit');
    expect(again.xRobotsTag).toBe('noindex, nofollow');
  });
});
