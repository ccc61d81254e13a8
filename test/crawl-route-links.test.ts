/**
 * Links to client-side routes in a crawl: a fragment that is a route (`#/guide`, `#!/x`, `#docs/x`) names another page
 * of a single-page app, as `@crawlkit/frontier`'s rules and de-duplication key say, so the crawl follows it; a plain
 * `#section` anchor is the page it is on, followed without its fragment.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: Server;
let base: string;
let ck: Crawlkit;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/robots.txt' || path === '/sitemap.xml') {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      path === '/docs'
        ? '<!doctype html><html><head><title>Docs</title></head><body><main><h1>Docs</h1><p>Usage.</p></main></body></html>'
        : '<!doctype html><html><head><title>App</title></head><body><main><h1>App</h1>' +
            '<p>The shell of a single-page app, the same for every route.</p>' +
            '<a href="#/guide">Guide</a> <a href="/#/api/v2">API</a> <a href="#!/settings">Settings</a> ' +
            '<a href="#intro">Intro</a> <a href="/docs#usage">Usage</a></main></body></html>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await new Promise((resolve) => server.close(resolve));
});

describe('a crawl of links to client-side routes', () => {
  it('follows each route as a page and an anchor as the page it is on', async () => {
    const started = await ck.crawl({ url: `${base}/`, scrapeOptions: { maxAge: 0 } });
    if (!started.success) throw new Error(`crawl refused: ${started.error}`);
    const status = await ck.waitForJob(started.id);
    if (!status.success) throw new Error(`crawl failed: ${status.error}`);
    const pages = status.data.map((d) => d.metadata.sourceURL.slice(base.length)).sort();
    expect(pages).toEqual(['/', '/#!/settings', '/#/api/v2', '/#/guide', '/docs']);
  });
});
