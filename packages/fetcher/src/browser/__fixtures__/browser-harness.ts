/** What the fetcher's browser tests share: Chromium kept on 127.0.0.1, a fixture server and one fetcher per file. */
import type { LookupFunction } from 'node:net';

import type { BrowserContext } from 'puppeteer-core';
import { afterAll, beforeAll } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../../../../../fixtures/server.ts';
import { ISOLATED_ARGS } from '../../../../../test/helpers/scrape.ts';
import { sharedBrowserEndpoint } from '../../../../../test/setup/shared-browser.ts';
import { Fetcher, type FetcherOptions, type PageResult } from '../../index.js';
import { connectBrowser, disconnectBrowser } from '../connect.js';
import { destroyBrowser, launchBrowser, type LaunchedBrowser } from '../launch.js';

export { ISOLATED_ARGS };
/** Chromium reaches the fixture server and the fake ad host (both 127.0.0.1) and nothing else. */
export const POLICY = { allowedHosts: ['127.0.0.1', 'ad.doubleclick.net'] };
/** The network gate resolves the browser's targets: the fake ad host is 127.0.0.1, every other name is unknown. */
export const lookup: LookupFunction = (hostname, options, callback) => {
  if (hostname !== 'ad.doubleclick.net' && hostname !== 'localhost') {
    const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
    error.code = 'ENOTFOUND';
    return callback(error, '', 4);
  }
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};
export const HTTP = { lookup };

/**
 * The `browser` options of a test fetcher: the run's shared Chromium (test/setup/shared-browser.ts, launched with the
 * same resolver rules) when there is one, else a launch of its own with `ISOLATED_ARGS`.
 */
export async function testBrowser(): Promise<NonNullable<FetcherOptions['browser']>> {
  const wsEndpoint = await sharedBrowserEndpoint();
  return wsEndpoint === undefined ? { args: ISOLATED_ARGS } : { wsEndpoint };
}

/**
 * A browser context of the file's own (direct, no proxy), on the run's shared Chromium when there is one or else on a
 * Chromium launched with `ISOLATED_ARGS`: made before the file's tests, closed (and the browser let go) after them. For
 * tests of one browser step on a page of their own, without a fetcher.
 */
export function useBrowserContext(): { readonly context: BrowserContext } {
  let launched: LaunchedBrowser | undefined;
  let shared = false;
  let context: BrowserContext;
  beforeAll(async () => {
    const endpoint = await sharedBrowserEndpoint();
    shared = endpoint !== undefined;
    launched = shared
      ? await connectBrowser(endpoint!, 30_000)
      : await launchBrowser({
          executablePath: process.env.CRAWLKIT_CHROMIUM ?? '/usr/bin/chromium',
          args: ISOLATED_ARGS,
          timeoutMs: 30_000,
        });
    context = await launched.browser.createBrowserContext({ proxyServer: 'direct://' });
  });
  afterAll(async () => {
    await context?.close();
    if (!launched) return;
    if (shared) await disconnectBrowser(launched);
    else await destroyBrowser(launched);
  });
  return {
    get context() {
      return context;
    },
  };
}

/**
 * A fixture server and a fetcher on it, started before the file's tests and closed after them.
 * @param urlPolicy the fetcher's; the default lets pages reach the fake ad host.
 */
export function useBrowserFixture(urlPolicy: FetcherOptions['urlPolicy'] = POLICY): {
  readonly server: FixtureServer;
  readonly fetcher: Fetcher;
  url(path: string): string;
  requestsTo(path: string, host?: string): number;
} {
  let server: FixtureServer;
  let fetcher: Fetcher;
  beforeAll(async () => {
    server = await startFixtureServer();
    fetcher = new Fetcher({ browser: await testBrowser(), urlPolicy, http: HTTP });
  });
  afterAll(async () => {
    await fetcher?.close();
    await server?.close();
  });
  return {
    get server() {
      return server;
    },
    get fetcher() {
      return fetcher;
    },
    url: (path) => server.url + path,
    requestsTo: (path, host = '127.0.0.1') => server.requests.filter((r) => r.path === path && r.host === host).length,
  };
}

/** The JSON `/js/whoami` writes: what the server saw and what the page sees. */
export function whoami(result: PageResult) {
  const pick = (id: string) =>
    JSON.parse(decodeHtml(new RegExp(`<pre id="${id}">(.*?)</pre>`).exec(result.text!)![1]!)) as unknown;
  return { server: pick('server') as Record<string, string>, client: pick('client') as Record<string, unknown> };
}
const decodeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

export const pngSize = (dataUrl: string) => {
  const bytes = Buffer.from(dataUrl.split(',')[1]!, 'base64');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
};
