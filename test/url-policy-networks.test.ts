// The strict URL policy with the private networks an operator lets through (`urlPolicy.allowedNetworks`; the intranet
// day's Left: `allowedHosts` only narrows, so "strict, but our wiki" could not be said): the wiki on 127.0.0.2 is
// read, a server on 127.0.0.3 stays refused, by a URL, a redirect or a page's image, in both engines.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';

let otherHits = 0;

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

/** The wiki on 127.0.0.2, whose `/go` redirects to a server on 127.0.0.3 and whose page shows an image from there. */
async function startSites() {
  let otherPort = 0;
  const wiki = createServer((req, res) => {
    if (req.url === '/go') return void res.writeHead(302, { location: `http://127.0.0.3:${otherPort}/` }).end();
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      `<html><head><title>Wiki</title></head><body><main><h1>Team wiki</h1><p>How we deploy on Fridays.</p>` +
        `<img src="http://127.0.0.3:${otherPort}/pixel.png" alt="pixel"></main></body></html>`,
    );
  });
  const other = createServer((_req, res) => {
    otherHits++;
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Another server.</p>');
  });
  const port = await listen(wiki, '127.0.0.2');
  otherPort = await listen(other, '127.0.0.3');
  return {
    port,
    otherPort,
    close: async () => {
      await new Promise((resolve) => wiki.close(resolve));
      await new Promise((resolve) => other.close(resolve));
    },
  };
}

describe.each(['http', 'browser'] as const)('urlPolicy.allowedNetworks, %s engine', (engine) => {
  const env = useFixtureEngine({
    server: startSites,
    crawlkit: {
      store: 'memory',
      engine,
      urlPolicy: { allowPrivateNetworks: false, allowedNetworks: ['127.0.0.2/32'] },
    },
  });

  it('reads a page of a listed network and refuses the rest of the private addresses', async () => {
    const { port, otherPort } = env.server;
    otherHits = 0;
    const page = await env.ck.scrape({ url: `http://127.0.0.2:${port}/`, formats: ['markdown'] });
    expect(page).toMatchObject({ success: true });
    expect((page as { data: { markdown: string } }).data.markdown).toContain('How we deploy on Fridays.');

    const direct = await env.ck.scrape({ url: `http://127.0.0.3:${otherPort}/` });
    expect(direct).toMatchObject({ success: false, code: 'URL_BLOCKED' });
    expect((direct as { error: string }).error).toContain('urlPolicy.allowedNetworks lists the private networks');

    const redirected = await env.ck.scrape({ url: `http://127.0.0.2:${port}/go` });
    expect(redirected).toMatchObject({ success: false, code: 'URL_BLOCKED' });
    expect((redirected as { error: string }).error).toContain(`redirected to http://127.0.0.3:${otherPort}/`);
    expect(otherHits).toBe(0);
  }, 30_000);
});
