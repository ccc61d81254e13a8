// A redirect from an allowed host to one the URL policy refuses is refused, and the message says it was a redirect
// and from which page: before, it named the refused host alone (`127.0.0.3 is refused by rule "allowedHosts"`), a
// host the caller never asked for.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';

let refusedHits = 0;

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** A wiki on 127.0.0.1 whose `/old` redirects to a host the policy refuses (`localhost`, another port). */
async function startSites(): Promise<{ port: number; refusedPort: number; close(): Promise<void> }> {
  let refusedPort = 0;
  const wiki = createServer((_req, res) => {
    res.writeHead(302, { location: `http://localhost:${refusedPort}/internal` }).end();
  });
  const refused = createServer((_req, res) => {
    refusedHits++;
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>internal</p>');
  });
  const port = await listen(wiki);
  refusedPort = await listen(refused);
  return {
    port,
    refusedPort,
    close: async () => {
      await new Promise((resolve) => wiki.close(resolve));
      await new Promise((resolve) => refused.close(resolve));
    },
  };
}

describe.each(['http', 'browser'] as const)('a redirect to a host the URL policy refuses, %s engine', (engine) => {
  const env = useFixtureEngine({
    server: startSites,
    crawlkit: { store: 'memory', engine, urlPolicy: { allowedHosts: ['127.0.0.1'] } },
  });

  it('is URL_BLOCKED, naming the page that redirected and where to', async () => {
    const { port, refusedPort } = env.server;
    const result = await env.ck.scrape({ url: `http://127.0.0.1:${port}/old` });
    expect(result).toMatchObject({ success: false, code: 'URL_BLOCKED' });
    const error = (result as { error: string }).error;
    // Before: 'URL blocked by the URL policy: localhost is refused by rule "allowedHosts". Add the host …'.
    expect(error).toContain(
      `The page http://127.0.0.1:${port}/old redirected to http://localhost:${refusedPort}/internal.`,
    );
    expect(error).toContain('is refused by rule "allowedHosts". Add the host to urlPolicy.allowedHosts');
    expect(refusedHits).toBe(0);
  }, 30_000);
});
