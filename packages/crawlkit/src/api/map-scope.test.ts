/**
 * The path a map keeps (`filterByPath`) after the URL asked for redirects on the same site: a documentation site whose
 * root redirects to its first page is mapped whole, as a crawl from the root crawls it, and a redirect from one
 * section to another keeps both.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Crawlkit } from '../crawlkit.js';

const page = (links: string[]) =>
  `<!doctype html><html><head><title>Docs</title></head><body><main><h1>Docs</h1>${links
    .map((href) => `<a href="${href}">${href}</a>`)
    .join(' ')}</main></body></html>`;

let server: Server;
let origin: string;
let ck: Crawlkit;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const redirects: Record<string, string> = { '/': '/docs/intro', '/latest': '/v2/' };
    const pages: Record<string, string[]> = {
      '/docs/intro': ['/docs/guide/a', '/blog/x'],
      '/docs/guide/a': ['/docs/guide/c'],
      '/v2/': ['/v2/start', '/latest/old', '/blog/z'],
    };
    if (redirects[path]) return void res.writeHead(302, { location: redirects[path] }).end();
    if (path === '/sitemap.xml') {
      const urls = ['/docs/guide/b', '/blog/y', '/v2/api'].map((p) => `<url><loc>${origin}${p}</loc></url>`);
      const xml = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`;
      return void res.writeHead(200, { 'content-type': 'application/xml' }).end(xml);
    }
    const links = pages[path];
    if (!links) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    res.writeHead(200, { 'content-type': 'text/html' }).end(page(links));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck?.close();
  await new Promise((resolve) => server?.close(resolve));
});

async function mapped(path: string): Promise<string[]> {
  const response = await ck.map({ url: `${origin}${path}` });
  if (!response.success) throw new Error(JSON.stringify(response));
  return response.links.map((link) => link.url.slice(origin.length)).sort();
}

describe('map after a redirect of the URL asked for', () => {
  it("maps the whole site when its root redirects to a page, with the root's warning-free answer", async () => {
    const response = await ck.map({ url: `${origin}/` });
    if (!response.success) throw new Error(JSON.stringify(response));
    expect(response.links.map((link) => link.url.slice(origin.length)).sort()).toEqual([
      '/blog/x',
      '/blog/y',
      '/docs/guide/a',
      '/docs/guide/b',
      '/docs/guide/c',
      '/docs/intro',
      '/v2/api',
    ]);
    expect(response.warning).toBeUndefined();
  });

  it("keeps the asked path and the target's on the same site, and still filters by path", async () => {
    expect(await mapped('/latest')).toEqual(['/latest/old', '/v2', '/v2/api', '/v2/start']);
    // Without a redirect a page is its own scope, as before: its sibling in the sitemap and the page it links are out.
    expect(await mapped('/docs/guide/a')).toEqual(['/docs/guide/a']);
  });
});
