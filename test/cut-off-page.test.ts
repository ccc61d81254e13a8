// A page whose HTML ends inside a start tag (a response cut short, a template that never closed its last tag): the
// parser left an element on its stack that the tree never opened, and every scrape of it failed with
// UNKNOWN_ERROR "Cannot set properties of undefined". A browser drops the unfinished tag and keeps the rest.
import type { ServerResponse } from 'node:http';

import { describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { startRouteSite } from './helpers/route-site.ts';
import { data } from './helpers/scrape.ts';

const PAGE =
  '<!doctype html><html><head><title>Cut off</title></head><body><main><h1>Release notes</h1>' +
  '<p>Version 2.4 fixes the importer and speeds up the sync of large folders.</p><p>Read the <a href="/guide">guide</a>';

function send(res: ServerResponse, html: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(html);
}

describe('a page cut off inside a tag', () => {
  const env = useFixtureEngine({
    server: () =>
      startRouteSite({
        '/in-tag': (_req, res) => send(res, `${PAGE} or <a href="/faq" target="_blank"`),
        '/in-attribute': (_req, res) => send(res, `${PAGE} <img src="/shot.png" alt="the new sync pa`),
      }),
  });

  it('is scraped: everything before the unfinished tag, which is dropped', async () => {
    for (const path of ['/in-tag', '/in-attribute']) {
      for (const onlyMainContent of [true, false]) {
        const doc = data(
          await env.ck.scrape({
            url: `${env.server.url}${path}`,
            formats: ['markdown', 'html', 'links', 'images'],
            onlyMainContent,
            maxAge: 0,
          }),
        );
        // Before: { success: false, code: 'UNKNOWN_ERROR' } for every one of these.
        expect(doc.markdown, path).toContain('Version 2.4 fixes the importer');
        expect(doc.markdown, path).toContain(`[guide](${env.server.url}/guide)`);
        expect(doc.links, path).toEqual([`${env.server.url}/guide`]);
        expect(doc.images, path).toEqual([]);
        expect(doc.html, path).not.toContain('faq');
      }
    }
  });
});
