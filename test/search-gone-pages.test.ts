/**
 * Search over pages a site has since deleted: a page scraped, then answering 404 or 410, leaves the page cache and so
 * the search index (SQLite and memory stores), and a later scrape fetches it again instead of serving the old copy.
 * In a job, whose results the index keeps a day: an error page's own text is never found ("Not found"), a gone page
 * hides the text its earlier result had, and a page that fails for a while (a 500) is still found by its last text.
 */
import type { LocalResult } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { startFixtureServer, type Routes } from '../fixtures/server.ts';
import { ok } from './helpers/crawl-site-run.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';

/** Each path's status and words; a test changes them to delete a page. */
const pages = new Map<string, { status: number; words: string }>();
const routes: Routes = {
  '/gone/*': (_req, res, ctx) => {
    const page = pages.get(ctx.url.pathname) ?? { status: 404, words: 'nothing here' };
    res.writeHead(page.status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>${page.words}</title></head><body><main><h1>${page.words}</h1>
      <p>This page is about ${page.words} and little else, in a sentence long enough to be the main content.</p>
      </main></body></html>`);
  },
};

for (const store of ['sqlite', 'memory'] as const) {
  describe(`a deleted page and the ${store} store's search`, () => {
    const env = useFixtureEngine({
      server: () => startFixtureServer({ routes }),
      crawlkit: (dir) => (store === 'sqlite' ? { storeDir: dir, engine: 'http' } : { store: 'memory', engine: 'http' }),
    });
    const found = async (query: string) =>
      ((ok(await env.ck.search({ query, limit: 10 })).data.web ?? []) as LocalResult[]).map((r) => r.url);

    it.each([404, 410])('drops a page that answers %i from the page cache and the index', async (status) => {
      const path = `/gone/${store}-${status}`;
      const word = `pineapple${status}${store}`;
      const url = env.server.url + path;
      pages.set(path, { status: 200, words: word });
      expect(ok(await env.ck.scrape({ url })).data.metadata.statusCode).toBe(200);
      expect(await found(word)).toEqual([url]);

      pages.set(path, { status, words: 'gone' });
      const again = ok(await env.ck.scrape({ url, maxAge: 0 }));
      expect(again.data.metadata.statusCode).toBe(status);
      expect(await found(word)).toEqual([]);
      // Nor does the cache serve the old copy to a scrape that would take one.
      const cached = ok(await env.ck.scrape({ url }));
      expect(cached.data.metadata.statusCode).toBe(status);
      expect(cached.data.metadata.cacheState).not.toBe('hit');
    });

    it('keeps a page that answers another error (a 500 may pass)', async () => {
      const path = `/gone/${store}-500`;
      const word = `marmalade${store}`;
      const url = env.server.url + path;
      pages.set(path, { status: 200, words: word });
      ok(await env.ck.scrape({ url }));
      pages.set(path, { status: 500, words: 'oops' });
      expect(ok(await env.ck.scrape({ url, maxAge: 0 })).data.metadata.statusCode).toBe(500);
      expect(await found(word)).toEqual([url]);
    });

    it("in a batch: an error page's text is not found, a gone page's old text neither, a failing page's still is", async () => {
      const urlOf = (path: string) => env.server.url + path;
      const gone = `/gone/${store}-batch-gone`;
      const failing = `/gone/${store}-batch-failing`;
      pages.set(gone, { status: 200, words: `quince${store}` });
      pages.set(failing, { status: 200, words: `damson${store}` });
      const first = ok(await env.ck.batchScrape({ urls: [urlOf(gone), urlOf(failing)] }));
      await env.ck.waitForJob(first.id);
      expect(await found(`quince${store}`)).toEqual([urlOf(gone)]);

      pages.set(gone, { status: 404, words: `medlar${store} not found` });
      pages.set(failing, { status: 500, words: `sloe${store} failed` });
      const second = ok(await env.ck.batchScrape({ urls: [urlOf(gone), urlOf(failing)], maxAge: 0 }));
      const done = ok(await env.ck.waitForJob(second.id));
      expect(done.data.map((d) => d.metadata.statusCode).sort()).toEqual([404, 500]);
      // Before: each error page was found by its own words, and the gone page by its old ones.
      expect(await found(`medlar${store}`)).toEqual([]);
      expect(await found(`sloe${store}`)).toEqual([]);
      expect(await found(`quince${store}`)).toEqual([]);
      expect(await found(`damson${store}`)).toEqual([urlOf(failing)]);
    });
  });
}
