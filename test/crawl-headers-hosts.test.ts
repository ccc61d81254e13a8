// A crawl's own `headers` (a session cookie, `Authorization`) go to the pages of the host the user named, never to
// another host a link leads to (`allowExternalLinks`): before, every page of the crawl was fetched with them, in both
// engines, so an external link on an intranet wiki handed its token to whatever host it named. The robots.txt and
// sitemap of the seed's host are read with them.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';

import { ok } from './helpers/crawl-site-run.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';

/** Requests the site answered: the host name they were sent to, the path and their headers. */
const seen: { host: string; path: string; headers: IncomingHttpHeaders }[] = [];

/** One server under two host names: `127.0.0.1` is the wiki the crawl starts on, `localhost` another host. */
async function startTwoHostSite(): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = req.url ?? '/';
    seen.push({ host, path, headers: req.headers });
    const { port } = server.address() as AddressInfo;
    // The wiki keeps its robots.txt and sitemap behind its token too.
    const signedIn = host === '127.0.0.1' && req.headers.authorization === 'Bearer wiki-t0ken';
    if (path === '/robots.txt' || path === '/sitemap.xml') {
      if (!signedIn) return void res.writeHead(host === '127.0.0.1' ? 401 : 404).end();
      if (path === '/robots.txt') return void res.writeHead(200).end('User-agent: *\nDisallow: /private\n');
      const loc = `<url><loc>http://127.0.0.1:${port}/from-sitemap</loc></url>`;
      return void res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${loc}</urlset>`);
    }
    if (path.endsWith('.xml')) return void res.writeHead(404).end();
    const links =
      host === '127.0.0.1' && path === '/'
        ? `<a href="/handbook">Handbook</a> <a href="http://localhost:${port}/elsewhere/page">Elsewhere</a>` +
          ' <a href="/private/notes">Private</a>'
        : '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><title>${host}${path}</title></head><body><main><h1>${host}${path}</h1>` +
        `<p>The page ${path} of ${host}, with enough text to be the main content.</p>${links}</main></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const HEADERS = {
  Authorization: 'Bearer wiki-t0ken',
  Cookie: 'session=wiki-s3cret',
  'X-Wiki-Token': 'wiki-x',
  'User-Agent': 'WikiBot/1.0',
};

describe.each(['http', 'browser'] as const)("a crawl's own headers with the %s engine", (engine) => {
  const env = useFixtureEngine({ server: startTwoHostSite, crawlkit: { store: 'memory', engine } });

  it('reach the pages of the seed host only, not the host an external link leads to', async () => {
    seen.length = 0;
    const { port } = env.server;
    const crawl = ok(
      await env.ck.crawl({
        url: `http://127.0.0.1:${port}/`,
        limit: 5,
        allowExternalLinks: true,
        scrapeOptions: { headers: HEADERS },
      }),
    );
    const status = await env.ck.waitForJob(crawl.id);
    expect(
      ok(status)
        .data.map((d) => d.metadata.sourceURL)
        .sort(),
    ).toEqual([
      `http://127.0.0.1:${port}/`,
      `http://127.0.0.1:${port}/from-sitemap`,
      `http://127.0.0.1:${port}/handbook`,
      `http://localhost:${port}/elsewhere/page`,
    ]);
    // robots.txt and the sitemap of the seed's host are read with them: before, both were 401s, so the sitemap's
    // page was missed and robots.txt's Disallow not applied.
    for (const file of ['/robots.txt', '/sitemap.xml']) {
      const asked = seen.filter((r) => r.host === '127.0.0.1' && r.path === file);
      expect(asked.map((r) => r.headers.authorization)).toEqual(['Bearer wiki-t0ken']);
    }
    expect(seen.some((r) => r.path.startsWith('/private'))).toBe(false);
    const pages = seen.filter((r) => !r.path.endsWith('.txt') && !r.path.endsWith('.xml'));
    for (const own of pages.filter((r) => r.host === '127.0.0.1')) {
      expect(own.headers).toMatchObject({ authorization: 'Bearer wiki-t0ken', 'x-wiki-token': 'wiki-x' });
      expect(own.headers.cookie).toContain('session=wiki-s3cret');
    }
    const elsewhere = pages.filter((r) => r.host === 'localhost');
    expect(elsewhere.length).toBeGreaterThan(0);
    for (const other of elsewhere) {
      // Before: `Bearer wiki-t0ken`, `session=wiki-s3cret` and `wiki-x` reached localhost.
      expect(other.headers.authorization).toBeUndefined();
      expect(other.headers.cookie ?? '').not.toContain('wiki-s3cret');
      expect(other.headers['x-wiki-token']).toBeUndefined();
      // The user agent is who the crawler is, not a credential: every host sees it.
      expect(other.headers['user-agent']).toBe('WikiBot/1.0');
    }
  }, 60_000);
});
