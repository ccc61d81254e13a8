/**
 * The media of a page through `scrape()` (HTTP engine): the `html` format's `srcset`, `<source srcset>` and
 * `<video poster>` absolute as `img[src]` and `a[href]` are (against the page's `<base href>`), `rawHtml` as served.
 */
import type { ServerResponse } from 'node:http';

import { describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { startRouteSite } from './helpers/route-site.ts';
import { data } from './helpers/scrape.ts';

const TEXT = '<p>The harbour at dawn, before the boats go out, and the nets drying on the wall by the steps.</p>';

function sendHtml(res: ServerResponse, head: string, body: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html><head><title>Harbour</title>${head}</head><body><main>${body}</main></body></html>`);
}

const PICTURE =
  '<picture><source type="image/webp" srcset="dawn-800.webp 800w, dawn-1600.webp 1600w">' +
  '<img src="dawn.jpg" srcset="dawn-1x.jpg 1x,  dawn-2x.jpg 2x" alt="Dawn"></picture>' +
  '<video poster="clip.jpg" controls><source src="clip.mp4" type="video/mp4"></video>';

const env = useFixtureEngine({
  server: () =>
    startRouteSite({
      '/harbour/dawn': (_req, res) => sendHtml(res, '<base href="/media/">', `<h1>Dawn</h1>${TEXT}${PICTURE}`),
    }),
});

describe('media URLs in the html format', () => {
  it('resolves every srcset candidate and the poster against <base>, descriptors kept; rawHtml as served', async () => {
    const url = `${env.server.url}/harbour/dawn`;
    const doc = data(await env.ck.scrape({ url, formats: ['html', 'rawHtml'], maxAge: 0 }));
    const media = `${env.server.url}/media`;
    expect(doc.html).toContain(`srcset="${media}/dawn-800.webp 800w, ${media}/dawn-1600.webp 1600w"`);
    expect(doc.html).toContain(`srcset="${media}/dawn-1x.jpg 1x,  ${media}/dawn-2x.jpg 2x"`);
    expect(doc.html).toContain(`poster="${media}/clip.jpg"`);
    expect(doc.rawHtml).toContain(PICTURE);
  });
});
