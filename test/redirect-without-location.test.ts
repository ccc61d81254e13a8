/**
 * A redirect that says nowhere to go (a 302 without `Location`): the page is kept as its body, as before, and its
 * document's `warning` and the engine's `warning` event (`REDIRECT_WITHOUT_LOCATION`) say the server redirected
 * without a target, through `scrape()`, a crawl and the browser engine (Chromium shows the body too).
 */
import { Crawlkit, type WarningCode } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { withSharedBrowser } from './helpers/fixture-engine.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';
import { data, ISOLATED_ARGS } from './helpers/scrape.ts';

let site: FixtureServer;
const SENTENCE =
  'The server answered 302 (a redirect) without saying where to (no `Location` header): the page is its body.';

beforeAll(async () => {
  site = await startRouteSite({
    '/': (_req, res) => sendPage(res, 'Hub', '<a href="/nowhere">Nowhere</a> <a href="/fine">Fine</a>'),
    '/nowhere': (_req, res) => {
      res.writeHead(302, { 'content-type': 'text/html' });
      res.end('<html><body><main><h1>Moved</h1><p>Moved somewhere, we will not say where.</p></main></body></html>');
    },
    '/fine': (_req, res) => sendPage(res, 'Fine', '<p>A page.</p>'),
  });
});

afterAll(async () => {
  await site.close();
});

/** An engine with the `warning` events it told. */
function engineTelling(ck: Crawlkit): { code: WarningCode; message: string }[] {
  const told: { code: WarningCode; message: string }[] = [];
  ck.on('warning', (warning) => told.push(warning));
  return told;
}

describe('a redirect without Location', () => {
  it('scrape() keeps the body as the page and warns, in the document and by the event', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    const told = engineTelling(ck);
    try {
      const doc = data(await ck.scrape({ url: `${site.url}/nowhere` }));
      expect(doc.metadata.statusCode).toBe(302);
      expect(doc.markdown).toContain('Moved somewhere');
      expect(doc.warning).toContain(SENTENCE);
      expect(told).toEqual([{ code: 'REDIRECT_WITHOUT_LOCATION', message: `${site.url}/nowhere: ${SENTENCE}` }]);
      // A page that answers is told nothing of it.
      expect(data(await ck.scrape({ url: `${site.url}/fine` })).warning ?? '').not.toContain('redirect');
    } finally {
      await ck.close();
    }
  });

  it("a crawl stores the page with the warning; the crawl's other pages have none", async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    const told = engineTelling(ck);
    try {
      const started = await ck.crawl({ url: `${site.url}/`, sitemap: 'skip' });
      if (!started.success) throw new Error(started.error);
      const done = await ck.waitForJob(started.id);
      if (!done.success) throw new Error(done.error);
      const bySource = new Map(done.data.map((doc) => [doc.metadata.sourceURL, doc]));
      const nowhere = bySource.get(`${site.url}/nowhere`);
      expect(nowhere?.metadata.statusCode).toBe(302);
      expect(nowhere?.warning).toContain(SENTENCE);
      expect(bySource.get(`${site.url}/fine`)?.warning ?? '').not.toContain('redirect');
      expect(told.filter((w) => w.code === 'REDIRECT_WITHOUT_LOCATION')).toHaveLength(1);
    } finally {
      await ck.close();
    }
  });

  it('the browser engine shows the body and warns the same', async () => {
    const ck = new Crawlkit(
      await withSharedBrowser({ store: 'memory', engine: 'browser', browser: { args: ISOLATED_ARGS } }),
    );
    try {
      const doc = data(await ck.scrape({ url: `${site.url}/nowhere` }));
      expect(doc.metadata.statusCode).toBe(302);
      expect(doc.markdown).toContain('Moved somewhere');
      expect(doc.warning).toContain(SENTENCE);
    } finally {
      await ck.close();
    }
  });
});
