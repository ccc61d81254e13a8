/**
 * Chromium's own time-outs of a navigation (`net::ERR_TIMED_OUT`): a server or proxy that takes the connection and
 * never answers its TLS handshake or tunnel is given up by Chromium after about 36 s, whatever the caller's timeout.
 * Reached through the engine in a probe (tmp-probe, see the performance journal, leftovers34); too slow for the suite.
 */
import { describe, expect, it } from 'vitest';

import { useBrowserContext } from './__fixtures__/browser-harness.js';
import { isBrowserError } from './errors.js';
import { navigationError } from './navigation-errors.js';

const browser = useBrowserContext();

describe('a port Chromium refuses', () => {
  it('is SCRAPE_SITE_ERROR saying which port and what to do (was "Error code: ERR_UNSAFE_PORT" alone)', async () => {
    const url = 'http://127.0.0.1:1/';
    const page = await browser.context.newPage();
    try {
      const error = navigationError(
        await page.goto(url).then(
          () => undefined,
          (caught: unknown) => caught,
        ),
        url,
      );
      expect(isBrowserError(error) && error.code).toBe('SCRAPE_SITE_ERROR');
      expect(error.message).toContain('Error code: ERR_UNSAFE_PORT: Chromium refuses port 1 of http://127.0.0.1:1/');
      expect(error.message).toContain("engine 'http'");
    } finally {
      await page.close();
    }
  });
});

describe("Chromium's own time-outs", () => {
  it('say which limit ran out, on which connection, and that raising timeout does not extend it', () => {
    for (const code of ['ERR_TIMED_OUT', 'ERR_CONNECTION_TIMED_OUT']) {
      const error = navigationError(new Error(`net::${code} at https://shop.test/cart`), 'https://shop.test/cart');
      expect(error).toMatchObject({
        code: 'SCRAPE_TIMEOUT',
        url: 'https://shop.test/cart',
        message:
          `Loading https://shop.test/cart in the browser timed out: Chromium's own limit on setting up a connection ` +
          `(${code}) ran out on the connection to shop.test:443, which was never answered. Raising timeout does ` +
          'not extend that limit: check that the site answers from here.',
      });
    }
  });
});
