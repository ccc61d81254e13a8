// A crawl that verifies certificates (`skipTlsVerification: false`, v2's default with `headers`) fetches its
// robots.txt and sitemaps the same way: the crawl's headers, which reach those files of the seed's host, are never
// sent over a connection whose certificate was not verified. Before, robots.txt and sitemaps skipped verification
// whatever the crawl said, so a self-signed (or intercepted) server got the token with them.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

import { generate } from 'selfsigned';
import { describe, expect, it } from 'vitest';

import { ok } from './helpers/crawl-site-run.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';

/** The `authorization` of each request the server answered, by path. */
const seen: { path: string; authorization: string | undefined }[] = [];

async function startSelfSigned(): Promise<{ port: number; close(): Promise<void> }> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], { keyType: 'ec', algorithm: 'sha256' });
  const server: Server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    seen.push({ path: req.url ?? '/', authorization: req.headers.authorization });
    if (req.url === '/robots.txt') return void res.writeHead(200).end('User-agent: *\nDisallow: /private\n');
    res.writeHead(200, { 'content-type': 'text/html' }).end('<main><h1>Wiki</h1><p>A page over TLS.</p></main>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a crawl that verifies certificates', () => {
  const env = useFixtureEngine({ server: startSelfSigned });

  it('sends its headers to no robots.txt or sitemap of a server it could not verify', async () => {
    const crawl = ok(
      await env.ck.crawl({
        url: `https://127.0.0.1:${env.server.port}/`,
        limit: 3,
        scrapeOptions: { headers: { authorization: 'Bearer wiki-t0ken' }, skipTlsVerification: false },
      }),
    );
    const status = ok(await env.ck.waitForJob(crawl.id));
    // The seed's certificate is signed by nobody: the crawl fails, as a scrape with verification does.
    expect(status.status).toBe('failed');
    expect(status.warning).toContain('SCRAPE_SSL_ERROR');
    // Before: robots.txt and sitemap.xml were fetched without verification, each with `Bearer wiki-t0ken`.
    expect(seen.filter((r) => r.authorization !== undefined)).toEqual([]);
  }, 30_000);
});
