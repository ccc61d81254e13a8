import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { launchListening, type ListeningChromium } from '../../../../test/helpers/listening-chromium.ts';
import { isBrowserError } from './errors.js';
import { Fetcher, type FetcherOptions } from '../index.js';
import { startFixtureServer, type FixtureServer } from '../../../../fixtures/server.ts';
import { HTTP, POLICY } from './__fixtures__/browser-harness.js';

// Every fetcher here connects to a Chromium this file starts.
let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server?.close();
});
const rendered = () => `${server.url}/js/rendered.html`;
const LATE_PARAGRAPH = 'This paragraph was fetched by a script after the page loaded.';

const connected = (wsEndpoint: string, options: FetcherOptions = {}) =>
  new Fetcher({
    engine: 'browser',
    urlPolicy: POLICY,
    http: HTTP,
    ...options,
    browser: { ...options.browser, wsEndpoint },
  });

/** Every page target and browser context of the browser, seen through a connection of the test's own. */
async function census(observer: Browser): Promise<{ pages: number; contexts: number }> {
  const session = await observer.target().createCDPSession();
  try {
    const { targetInfos } = await session.send('Target.getTargets');
    const { browserContextIds } = await session.send('Target.getBrowserContexts');
    return { pages: targetInfos.filter((t) => t.type === 'page').length, contexts: browserContextIds.length };
  } finally {
    await session.detach();
  }
}

describe('browser.wsEndpoint', () => {
  let chromium: ListeningChromium;
  let observer: Browser;
  beforeAll(async () => {
    chromium = await launchListening();
    observer = await puppeteer.connect({ browserWSEndpoint: chromium.wsEndpoint });
  });
  afterAll(async () => {
    await observer?.disconnect();
    await chromium?.close();
  });

  it('scrapes in the running browser and leaves it running, with no page or context of its own, on close', async () => {
    const before = await census(observer);
    const fetcher = connected(chromium.wsEndpoint);
    const result = await fetcher.fetch({ url: rendered() });
    expect(result.engine).toBe('browser');
    expect(result.text).toContain(LATE_PARAGRAPH);
    expect(fetcher.browserStats).toMatchObject({ launches: 0, connections: 1, pids: [] });
    // The page's context is closed with it; a spare page waits in a context of its own.
    expect((await census(observer)).contexts).toBeGreaterThan(before.contexts);
    await fetcher.close();
    expect(observer.connected).toBe(true);
    expect(await census(observer)).toEqual(before);
  });

  it('closes the context of a page that was still opening when its load was aborted', async () => {
    // No spare page: the load's page is opened for it, after the browser's page slot is taken.
    const fetcher = connected(chromium.wsEndpoint, { browser: { prewarm: false } });
    try {
      await fetcher.fetch({ url: rendered() });
      const before = await census(observer);
      const controller = new AbortController();
      const loading = fetcher.fetch({ url: rendered(), signal: controller.signal });
      // The slot is taken: the page is opening now, and the abort lands before it has opened.
      await waitFor(
        () => fetcher.browserStats.activePages === 1,
        10_000,
        () => new Promise(setImmediate),
      );
      controller.abort();
      await expect(loading).rejects.toMatchObject({ code: 'ABORTED' });
      await waitFor(() => fetcher.browserStats.activePages === 0);
      // Chromium drops a closed context's page target a moment after the context: both are waited for.
      const left = async () => {
        const now = await census(observer);
        return now.contexts > before.contexts || now.pages > before.pages ? now : undefined;
      };
      let after = await left();
      for (const until = performance.now() + 10_000; after && performance.now() < until;) after = await left();
      expect(after ?? before).toEqual(before);
    } finally {
      await fetcher.close();
    }
  });

  it('keeps two fetchers on one browser apart: closing one leaves the other its pages', async () => {
    const first = connected(chromium.wsEndpoint);
    const second = connected(chromium.wsEndpoint);
    try {
      const [a, b] = await Promise.all([first.fetch({ url: rendered() }), second.fetch({ url: rendered() })]);
      expect([a.text, b.text].every((text) => text?.includes(LATE_PARAGRAPH))).toBe(true);
      // A page of the second still loading while the first closes (its spare and contexts go, not the second's).
      const loading = second.fetch({ url: rendered() });
      await first.close();
      expect((await loading).text).toContain(LATE_PARAGRAPH);
      expect(second.browserStats.connections).toBe(1);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});

describe('browser.wsEndpoint when the browser goes away', () => {
  let chromium: ListeningChromium | undefined;
  afterAll(async () => {
    await chromium?.close();
  });

  it('fails the next page with BROWSER_CONNECT_FAILED naming the endpoint, then connects to the browser restarted', async () => {
    chromium = await launchListening();
    const endpoint = `http://127.0.0.1:${chromium.port}`;
    const fetcher = new Fetcher({
      engine: 'browser',
      urlPolicy: POLICY,
      http: HTTP,
      browser: { wsEndpoint: endpoint, launchRetryMs: 1 },
    });
    try {
      expect((await fetcher.fetch({ url: rendered() })).text).toContain(LATE_PARAGRAPH);
      // Killed as a crash or an `docker stop` would: no goodbye on the connection.
      await chromium.close();
      await waitFor(() => fetcher.browserStats.running === 0);
      const error: unknown = await fetcher.fetch({ url: rendered() }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(isBrowserError(error) && error.code).toBe('BROWSER_CONNECT_FAILED');
      expect((error as Error).message).toContain(`at ${endpoint} (browser.wsEndpoint)`);

      chromium = await launchListening(chromium.port);
      expect((await fetcher.fetch({ url: rendered() })).text).toContain(LATE_PARAGRAPH);
      expect(fetcher.browserStats).toMatchObject({ launches: 0, connections: 2, launchFailures: 1 });
    } finally {
      await fetcher.close();
    }
  });
});

describe('browser.wsEndpoint where nothing listens', () => {
  it('fails with BROWSER_CONNECT_FAILED saying why (the refused connection), not "[object Object]"', async () => {
    const endpoint = 'ws://127.0.0.1:1/devtools/browser/none';
    const fetcher = new Fetcher({
      engine: 'browser',
      urlPolicy: POLICY,
      http: HTTP,
      browser: { wsEndpoint: endpoint },
    });
    try {
      const error: unknown = await fetcher.fetch({ url: rendered() }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(isBrowserError(error) && error.code).toBe('BROWSER_CONNECT_FAILED');
      const message = (error as Error).message;
      expect(message).toContain(`at ${endpoint} (browser.wsEndpoint): connect ECONNREFUSED 127.0.0.1:1.`);
      expect(message).not.toContain('[object Object]');
    } finally {
      await fetcher.close();
    }
  });
});

/** Resolves once `done()` holds, checking after every turn of the event loop's timers. */
async function waitFor(
  done: () => boolean,
  ms = 10_000,
  turn = () => new Promise((resolve) => setTimeout(resolve, 10)),
): Promise<void> {
  const until = performance.now() + ms;
  while (!done()) {
    if (performance.now() > until) throw new Error('the condition did not hold in time');
    await turn();
  }
}
