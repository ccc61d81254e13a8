/**
 * The browser behind a user's forward proxy (a corporate network): the site's name is one only the proxy can reach
 * (`shop.test` goes to the fixture server through it), so a request that went around the proxy would fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../../../../fixtures/server.ts';
import { startConnectProxy, type TestProxy } from '../http/__fixtures__/connect-proxy.ts';
import { Fetcher } from '../index.js';
import { ISOLATED_ARGS } from './__fixtures__/browser-harness.js';

let server: FixtureServer;
let proxy: TestProxy;
let fetcher: Fetcher;

beforeAll(async () => {
  server = await startFixtureServer();
  proxy = await startConnectProxy({ routeTo: { host: '127.0.0.1', port: server.port }, credentials: 'corp:pa55' });
  fetcher = new Fetcher({
    browser: { args: ISOLATED_ARGS },
    proxies: { basic: [proxy.url.replace('http://', 'http://corp:pa55@')] },
  });
});

afterAll(async () => {
  await fetcher?.close();
  await proxy?.close();
  await server?.close();
});

describe('the browser behind a forward proxy', () => {
  it('emulates a country on a plain-HTTP site (geolocation is only granted where a page may ask for it)', async () => {
    const result = await fetcher.fetch({
      url: 'http://shop.test/js/whoami',
      engine: 'browser',
      location: { country: 'DE' },
    });
    expect(result.status).toBe(200);
    expect(proxy.forwarded).toContain('http://shop.test/js/whoami');
    expect(result.text).toContain('Europe/Berlin');
  });
});
