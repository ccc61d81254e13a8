import type { ServerResponse } from 'node:http';

import type { Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../../../../fixtures/server.ts';
import { useBrowserContext } from '../../../fetcher/src/browser/__fixtures__/browser-harness.ts';
import { readPageHtml } from './page-html.js';

let server: FixtureServer;
const browser = useBrowserContext();
let page: Page;
/** Responses of `/endless`: a page whose first bytes came and whose rest never does (its DOM stays loading). */
const endless: ServerResponse[] = [];

beforeAll(async () => {
  server = await startFixtureServer({
    routes: {
      '/endless': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<!doctype html><p>The start of a page whose rest never comes');
        endless.push(res);
      },
    },
  });
});

afterAll(async () => {
  await server?.close();
});

beforeEach(async () => {
  page = await browser.context.newPage();
  await page.goto(`${server.url}/js/nav.html`, { waitUntil: 'load' });
});

afterEach(async () => {
  await page.close();
  for (const res of endless.splice(0)) res.end();
});

/**
 * The page, except that its first `evaluate` is sent to a document that navigates to `target` before it answers, as
 * a read sent just before a navigation commits is: Chromium drops the call with the document's context.
 */
function navigatingDuringFirstRead(target: string): { page: Page; failures: string[] } {
  const failures: string[] = [];
  let first = true;
  const proxy = new Proxy(page, {
    get(real, key) {
      if (key === 'evaluate' && first) {
        first = false;
        return () =>
          real.evaluate(`new Promise(() => { location.href = ${JSON.stringify(target)}; })`).catch((error: Error) => {
            failures.push(error.message);
            throw error;
          });
      }
      const value: unknown = Reflect.get(real, key, real);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(real) : value;
    },
  });
  return { page: proxy, failures };
}

describe('readPageHtml', () => {
  it('reads the document that a navigation during the read led to', async () => {
    const { page: navigating, failures } = navigatingDuringFirstRead('/js/nav-target.html');
    const html = await readPageHtml(navigating, 1_000_000);
    // Before: the read failed with "Execution context was destroyed, most likely because of a navigation."
    expect(failures).toEqual([expect.stringMatching(/Execution context was destroyed/)]);
    expect(html).toContain('Arrived at the target page');
    expect(page.url()).toBe(`${server.url}/js/nav-target.html`);
  });

  it('gives up when the next document does not come within its time', async () => {
    const { page: navigating, failures } = navigatingDuringFirstRead('/endless');
    await expect(readPageHtml(navigating, 1_000_000, { timeoutMs: 300 })).rejects.toThrow(
      /Waiting failed: \d+ms exceeded/,
    );
    expect(failures).toEqual([expect.stringMatching(/Execution context was destroyed/)]);
  });
});
