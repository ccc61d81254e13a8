import { createServer, type AddressInfo, type Socket } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../../../../fixtures/server.ts';
import { startConnectProxy } from './__fixtures__/connect-proxy.ts';
import { createCa, startSelfSignedServer, type TlsServer } from './__fixtures__/self-signed-server.ts';
import { failure } from './__fixtures__/http-site.ts';
import { HttpEngine } from './http-engine.js';

let server: FixtureServer;
let tls: TlsServer;
let engine: HttpEngine;

beforeAll(async () => {
  [server, tls] = await Promise.all([startFixtureServer(), startSelfSignedServer()]);
  engine = new HttpEngine();
});

afterAll(async () => {
  await engine.close();
  await Promise.all([server.close(), tls.close()]);
});

describe('TLS', () => {
  it('accepts a self-signed certificate by default (skipTlsVerification: true)', async () => {
    const result = await engine.fetch({ url: `${tls.url}/` });
    expect(result.status).toBe(200);
    expect(result.text).toBe('<p>over TLS</p>');
  });

  it('refuses it with skipTlsVerification: false, with the v2 SSL error', async () => {
    const error = await failure(engine.fetch({ url: `${tls.url}/`, skipTlsVerification: false }));
    expect(error.code).toBe('SCRAPE_SSL_ERROR');
    // v2's message, then what was wrong and what to do.
    expect(error.message).toBe(
      "An SSL error occurred while scraping the URL. If you're not inputting any sensitive data, try scraping with `skipTlsVerification: true`. The site's certificate is signed by an authority Node does not trust (DEPTH_ZERO_SELF_SIGNED_CERT): put a company CA in a PEM file named by NODE_EXTRA_CA_CERTS (read when the process starts).",
    );
    // The verifying and the non-verifying pools stay apart.
    expect((await engine.fetch({ url: `${tls.url}/` })).status).toBe(200);
  });

  // A certificate for another host is told too (ERR_TLS_CERT_ALTNAME_INVALID), once its CA is trusted: here it is
  // not (NODE_EXTRA_CA_CERTS is read when Node starts), and the untrusted issuer is what Node reports first.
  it("says what is wrong with a company CA's certificate: untrusted, expired", async () => {
    const ca = await createCa();
    const servers = await Promise.all([
      startSelfSignedServer({ ca, host: '127.0.0.1' }),
      startSelfSignedServer({ ca, host: '127.0.0.1', expired: true }),
    ]);
    try {
      const messages = await Promise.all(
        servers.map(
          async (s) => (await failure(engine.fetch({ url: `${s.url}/`, skipTlsVerification: false }))).message,
        ),
      );
      expect(messages[0]).toMatch(
        /signed by an authority Node does not trust \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\).*NODE_EXTRA_CA_CERTS/,
      );
      expect(messages[1]).toMatch(/has expired, or is not valid yet \(CERT_HAS_EXPIRED\)\.$/);
      for (const message of messages) expect(message).toMatch(/^An SSL error occurred while scraping the URL\./);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });
});

describe('proxies', () => {
  it('tunnels requests through an HTTP proxy', async () => {
    const proxy = await startConnectProxy();
    try {
      const result = await engine.fetch({ url: `${server.url}/http/json`, proxy: proxy.url });
      expect(JSON.parse(result.text!)).toEqual({ name: 'café', items: [1, 2, 3] });
      expect(proxy.tunnels).toEqual([`127.0.0.1:${server.port}`]);
    } finally {
      await proxy.close();
    }
  });

  it('sends the credentials of the proxy URL, and keeps them out of errors', async () => {
    const proxy = await startConnectProxy({ credentials: 'bob:s3cret' });
    try {
      const authed = proxy.url.replace('http://', 'http://bob:s3cret@');
      expect((await engine.fetch({ url: `${server.url}/http/json`, proxy: authed })).status).toBe(200);
      const wrong = proxy.url.replace('http://', 'http://bob:wrong@');
      const error = await failure(engine.fetch({ url: `${server.url}/http/json`, proxy: wrong }));
      expect(error.code).toBe('SCRAPE_PROXY_ERROR');
      expect(error.message).toBe(
        `The proxy ${proxy.url} refused its credentials (407): check the user name and password of the proxy (PROXY_USERNAME and PROXY_PASSWORD, or the proxy URL, percent-encoded there).`,
      );
      expect(String(error.url)).not.toContain('wrong');
      const none = await failure(engine.fetch({ url: `${server.url}/http/json`, proxy: proxy.url }));
      expect(none).toMatchObject({
        code: 'SCRAPE_PROXY_ERROR',
        message: expect.stringContaining('asks for credentials'),
      });
    } finally {
      await proxy.close();
    }
  });

  it("tells the proxy's failures as the proxy's: not running, refusing the site, an unknown name", async () => {
    const down = await failure(engine.fetch({ url: `${server.url}/http/json`, proxy: 'http://u:pw@127.0.0.1:1' }));
    expect(down).toMatchObject({
      code: 'SCRAPE_PROXY_ERROR',
      message:
        'The proxy http://127.0.0.1:1 could not be reached (connection refused): check its address, and that it runs.',
    });
    const refusing = await startConnectProxy({ refuseConnect: 403 });
    try {
      const refused = await failure(engine.fetch({ url: `${tls.url}/`, proxy: refusing.url }));
      expect(refused).toMatchObject({
        code: 'SCRAPE_PROXY_ERROR',
        message: `The proxy ${refusing.url} answered 403 instead of connecting to ${new URL(tls.url).host}: it refuses that site, or could not reach it.`,
      });
    } finally {
      await refusing.close();
    }
    const unknown = await failure(engine.fetch({ url: `${server.url}/http/json`, proxy: 'http://proxy.invalid:3128' }));
    expect(unknown).toMatchObject({ code: 'SCRAPE_PROXY_ERROR', message: expect.stringContaining('proxy.invalid') });
  });

  it('ends at its timeout behind a proxy that takes the connection and never answers', async () => {
    const held = new Set<Socket>();
    const silent = createServer((socket) => void held.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const address = `127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const started = performance.now();
      const proxy = `http://user:hunter2@${address}`;
      const error = await failure(engine.fetch({ url: 'http://shop.test/', proxy, timeoutMs: 500 }));
      // A timeout still, which names the proxy (not its credentials), as the browser's does.
      expect(error).toMatchObject({
        code: 'SCRAPE_TIMEOUT',
        message: `Scrape timed out after 500 ms: the proxy http://${address} did not answer its request for shop.test:80 (the proxy is not answering, or the site behind it is not).`,
      });
      // An https: site: the proxy took the connection and never answered the CONNECT.
      const tunnel = await failure(engine.fetch({ url: 'https://shop.test/', proxy, timeoutMs: 500 }));
      expect(tunnel).toMatchObject({ code: 'SCRAPE_TIMEOUT', message: expect.stringContaining(`for shop.test:443`) });
      expect(tunnel.message).not.toContain('hunter2');
      // Not the proxy client's own 300 s wait for the CONNECT's answer.
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('reaches an HTTPS target through the proxy', async () => {
    const proxy = await startConnectProxy();
    try {
      const result = await engine.fetch({ url: `${tls.url}/`, proxy: proxy.url });
      expect(result.text).toBe('<p>over TLS</p>');
    } finally {
      await proxy.close();
    }
  });
});
