/**
 * Search after a recrawl that changed one page and deleted another, as a user who crawls a docs site twice meets it:
 * the first crawl's results are kept a day, but a page is found by its current text only (its newest stored entry),
 * and a page deleted since (404 in the recrawl) by none of its old words.
 */
import type { LocalResult } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { startFixtureServer, type Routes } from '../fixtures/server.ts';
import { ok } from './helpers/crawl-site-run.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';

const pages = new Map<string, string>([
  ['/', '<a href="/site/a">a</a> <a href="/site/b">b</a> The harbor handbook.'],
  ['/a', 'The pineapple ledger lists every crate.'],
  ['/b', 'The marmalade recipe takes oranges.'],
]);
const routes: Routes = {
  '/site/*': (_req, res, ctx) => {
    const body = pages.get(ctx.url.pathname.slice('/site'.length) || '/');
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<html><head><title>${ctx.url.pathname}</title></head><body><main><p>${body ?? 'Not found.'}</p>
      <p>A sentence long enough for the page to have main content of its own, whatever it holds.</p></main></body></html>`);
  },
};

const env = useFixtureEngine({
  server: () => startFixtureServer({ routes }),
  crawlkit: (dir) => ({ storeDir: dir, engine: 'http' }),
});

const found = async (query: string) =>
  ((ok(await env.ck.search({ query, limit: 10 })).data.web ?? []) as LocalResult[]).map((r) => new URL(r.url).pathname);

async function crawl(): Promise<string> {
  const started = ok(await env.ck.crawl({ url: `${env.server.url}/site/`, limit: 10, scrapeOptions: { maxAge: 0 } }));
  ok(await env.ck.waitForJob(started.id));
  return started.id;
}

describe('search after a recrawl', () => {
  it('finds each page by its current text only', async () => {
    const first = await crawl();
    expect(await found('pineapple')).toEqual(['/site/a']);
    expect(await found('marmalade')).toEqual(['/site/b']);

    pages.set('/a', 'The kiwi ledger lists every crate now.');
    pages.delete('/b');
    await crawl();
    expect(await found('kiwi')).toEqual(['/site/a']);
    expect(await found('pineapple')).toEqual([]);
    expect(await found('marmalade')).toEqual([]);
    // The first crawl's results are still its results.
    const status = ok(await env.ck.getCrawlStatus(first));
    expect(status.data.map((d) => d.markdown).join(' ')).toContain('pineapple');
  });
});
