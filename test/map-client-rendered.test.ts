/**
 * A map of a single-page app: its links exist only once its scripts run, and map reads pages over HTTP. Before, the
 * map answered the seed alone with "try mapping the base domain" (or, at a site's root, nothing), which sends the user
 * the wrong way; now its warning says the page is client-rendered and what finds its links.
 */
import { Crawlkit, type MapResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer, RouteHandler } from '../fixtures/server.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';

const SHELL = `<!doctype html><html><head><title>App</title></head><body><div id="root"></div>
<script>document.getElementById('root').innerHTML = '<nav><a href="/app/settings">Settings</a></nav>';</script>
</body></html>`;

let server: FixtureServer;
let ck: Crawlkit;

beforeAll(async () => {
  const shell: RouteHandler = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(SHELL);
  };
  server = await startRouteSite({
    '/': shell,
    '/app/': shell,
    '/docs/': (_req, res) => sendPage(res, 'Docs', '<p>Nothing is linked from this page of the docs.</p>'),
  });
  ck = new Crawlkit({ store: 'memory' });
});

afterAll(async () => {
  await ck?.close();
  await server?.close();
});

async function map(path: string): Promise<MapResponse> {
  const answer = await ck.map({ url: new URL(path, server.url).href, sitemap: 'skip' });
  if (!answer.success) throw new Error(answer.error);
  return answer;
}

describe('map of a client-rendered app', () => {
  it('says the page is client-rendered and that a crawl renders it', async () => {
    for (const path of ['/app/', '/']) {
      const answer = await map(path);
      expect(answer.links).toHaveLength(1);
      expect(answer.warning).toContain(
        'looks client-rendered (js-required:app-shell): its links are made by its scripts, which map does not run',
      );
      expect(answer.warning).toContain('A crawl renders such pages and follows their links');
    }
  });

  it('says nothing of the kind for a server-rendered page with no links', async () => {
    const answer = await map('/docs/');
    expect(answer.warning).not.toContain('client-rendered');
  });
});
