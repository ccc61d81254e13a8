import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../../../../fixtures/server.ts';
import { startConnectProxy } from './__fixtures__/connect-proxy.ts';
import { startSelfSignedServer, type TlsServer } from './__fixtures__/self-signed-server.ts';
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
    expect(error.message).toBe(
      "An SSL error occurred while scraping the URL. If you're not inputting any sensitive data, try scraping with `skipTlsVerification: true`.",
    );
    // The verifying and the non-verifying pools stay apart.
    expect((await engine.fetch({ url: `${tls.url}/` })).status).toBe(200);
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
      expect(error.code).toBe('SCRAPE_CONNECTION_ERROR');
      expect(error.message).not.toContain('wrong');
      expect(String(error.url)).not.toContain('wrong');
    } finally {
      await proxy.close();
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
