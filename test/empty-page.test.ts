// A page that answers 200 with a document holding no text (a shell whose content never came, a page left blank):
// its markdown is empty, and it said nothing, so an empty page read as a scrape that lost it. Its document now says so.
import { describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';
import type { ServerResponse } from 'node:http';

import { sendPage, startRouteSite } from './helpers/route-site.ts';
import { data } from './helpers/scrape.ts';

/** A document with a title and `body` as its whole body (no heading of its own, unlike `sendPage`). */
function sendBare(res: ServerResponse, body: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html><head><title>Forum</title></head><body>${body}</body></html>`);
}

const EMPTY_NOTE = 'The page has no text: its HTML holds nothing to convert.';

describe('a page with no text', () => {
  const env = useFixtureEngine({
    server: () =>
      startRouteSite({
        '/blank': (_req, res) =>
          sendBare(res, '<section id="splash"><div class="dots"></div></section><section id="main"></section>'),
        '/topic': (_req, res) => sendPage(res, 'Topic', '<p>Which telescope should I buy first?</p>'),
        '/app': (_req, res) => sendBare(res, '<div id="root"></div><script src="/app.js"></script>'),
      }),
  });
  const scrape = async (path: string, onlyMainContent = true) =>
    data(await env.ck.scrape({ url: `${env.server.url}${path}`, formats: ['markdown'], onlyMainContent, maxAge: 0 }));

  it('says so in its warning, whether the main content or the whole page was asked for', async () => {
    for (const only of [true, false]) {
      const doc = await scrape('/blank', only);
      expect(doc.markdown).toBe('');
      // Before: no warning at all.
      expect(doc.warning).toBe(EMPTY_NOTE);
    }
  });

  it('says that includeTags matched nothing, not that the page has no text', async () => {
    const doc = data(
      await env.ck.scrape({ url: `${env.server.url}/topic`, formats: ['markdown'], includeTags: ['#gone'], maxAge: 0 }),
    );
    expect(doc.markdown).toBe('');
    // Before: "The page has no text", and before that nothing at all.
    expect(doc.warning).toBe(
      'No element of the page matched includeTags ("#gone"), so the result is empty: check the selectors against ' +
        "the page's HTML (the rawHtml format), or scrape without includeTags.",
    );
  });

  it('says nothing of a page with text, nor twice of a shell that another warning explains', async () => {
    expect((await scrape('/topic')).warning).toBeUndefined();
    const shell = await scrape('/app');
    expect(shell.markdown).toBe('');
    expect(shell.warning).toContain('looks client-rendered');
    expect(shell.warning).not.toContain('has no text');
  });
});
