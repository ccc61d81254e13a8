// A crawl of a site behind Basic auth, its user name and password in the seed's URL (`http://user:pass@wiki/`): every
// page of the seed's origin is read with them, robots.txt too, and no other origin gets them. Before, the HTTP engine
// read the seed alone (its links came without the user info: every other page a 401), and robots.txt was read
// without them in both engines (a 401, so its rules were not applied).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';

import { ok } from './helpers/crawl-site-run.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';

const AUTH = `Basic ${Buffer.from('alice:pw@x').toString('base64')}`;
/** Requests the wiki and the other origin answered: which, the path and its `authorization`. */
const seen: { site: 'wiki' | 'other'; path: string; authorization: string | undefined }[] = [];

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

const html = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
  `<p>The page ${title} of the wiki, with enough text to be the main content.</p>${body}</main></body></html>`;

/** The wiki (its pages and robots.txt behind Basic auth) and another origin on another port. */
async function startWiki(): Promise<{ port: number; otherPort: number; close(): Promise<void> }> {
  let otherPort = 0;
  const wiki = createServer((req, res) => {
    const path = req.url ?? '/';
    seen.push({ site: 'wiki', path, authorization: req.headers.authorization });
    if (req.headers.authorization !== AUTH) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="wiki"', 'content-type': 'text/html' });
      return void res.end(html('Sign in', ''));
    }
    if (path === '/robots.txt') return void res.writeHead(200).end('User-agent: *\nDisallow: /private\n');
    if (path.endsWith('.xml') || path === '/favicon.ico') return void res.writeHead(404).end();
    const links =
      path === '/'
        ? `<a href="/a">A</a> <a href="b">B</a> <a href="http://127.0.0.1:${wikiPort}/c">C</a>` +
          ` <a href="/private/x">Private</a> <a href="http://127.0.0.1:${otherPort}/elsewhere">Elsewhere</a>`
        : '';
    res.writeHead(200, { 'content-type': 'text/html' }).end(html(path, links));
  });
  const other = createServer((req, res) => {
    seen.push({ site: 'other', path: req.url ?? '/', authorization: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'text/html' }).end(html(req.url ?? '/', ''));
  });
  const wikiPort = await listen(wiki);
  otherPort = await listen(other);
  return {
    port: wikiPort,
    otherPort,
    close: async () => {
      await new Promise((resolve) => wiki.close(resolve));
      await new Promise((resolve) => other.close(resolve));
    },
  };
}

describe.each(['http', 'browser'] as const)('a crawl with Basic auth in its URL, %s engine', (engine) => {
  const env = useFixtureEngine({ server: startWiki, crawlkit: { store: 'memory', engine } });

  it("reads every page of the seed's origin and its robots.txt with it, and no other origin", async () => {
    seen.length = 0;
    const { port, otherPort } = env.server;
    const crawl = ok(
      await env.ck.crawl({ url: `http://alice:pw%40x@127.0.0.1:${port}/`, limit: 10, allowExternalLinks: true }),
    );
    const status = ok(await env.ck.waitForJob(crawl.id));
    const pages = status.data.map((d) => `${d.metadata.sourceURL} ${d.metadata.statusCode}`).sort();
    // Before (HTTP engine): /a, /b and /c were 401s, and /private/x was read (robots.txt was a 401 too).
    expect(pages).toEqual(
      [
        `http://127.0.0.1:${otherPort}/elsewhere 200`,
        `http://127.0.0.1:${port}/ 200`,
        `http://127.0.0.1:${port}/a 200`,
        `http://127.0.0.1:${port}/b 200`,
        `http://127.0.0.1:${port}/c 200`,
      ].sort(),
    );
    expect(seen.filter((r) => r.site === 'wiki' && r.path === '/robots.txt' && r.authorization === AUTH)).toHaveLength(
      1,
    );
    expect(seen.some((r) => r.path.startsWith('/private'))).toBe(false);
    expect(seen.filter((r) => r.site === 'other').map((r) => r.authorization)).toEqual(
      seen.filter((r) => r.site === 'other').map(() => undefined),
    );
  }, 60_000);
});
