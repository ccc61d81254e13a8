/**
 * A page fetched without what the request asked of the browser (`engine: 'http'`, or no browser at hand) is kept under
 * that request's key, and answers an engine as unable as the one that fetched it: a later engine that can honour it
 * (`mobile`, `location`, `waitFor`, a screenshot) must not be served the page fetched without it. The site answers by
 * the User-Agent it gets.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { withSharedBrowser } from './helpers/fixture-engine.ts';
import { data, ISOLATED_ARGS } from './helpers/scrape.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';
import type { FixtureServer } from '../fixtures/server.ts';

let site: FixtureServer;
const root = mkdtempSync(join(tmpdir(), 'ck-cache-unhonoured-'));

beforeAll(async () => {
  site = await startRouteSite({
    '/seen': (req, res) => {
      const mobile = /Mobile/.test(req.headers['user-agent'] ?? '');
      sendPage(res, 'Seen', `<p>Served to a ${mobile ? 'phone' : 'desktop'} browser.</p>`);
    },
  });
});

afterAll(async () => {
  await site.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a page fetched without an option the browser honours', () => {
  it('answers no engine that can honour it: an engine with the browser fetches the page as asked', async () => {
    const storeDir = join(root, 'store');
    const url = `${site.url}/seen`;
    const http = new Crawlkit({ storeDir, engine: 'http' });
    try {
      const plain = data(await http.scrape({ url, mobile: true }));
      expect(plain.markdown).toContain('desktop browser');
      expect(plain.warning).toContain('does not support the following features: mobile');
      // The same engine could do no better: it is served the copy, with the same warning.
      const again = data(await http.scrape({ url, mobile: true }));
      expect(again.metadata.cacheState).toBe('hit');
      expect(again.warning).toContain('does not support the following features: mobile');
    } finally {
      await http.close();
    }
    const auto = new Crawlkit(await withSharedBrowser({ storeDir, engine: 'auto' }, ISOLATED_ARGS));
    try {
      const phone = data(await auto.scrape({ url, mobile: true }));
      expect(phone.metadata.cacheState).toBe('miss');
      expect(phone.markdown).toContain('phone browser');
      // The page fetched as asked is kept as usual.
      expect(data(await auto.scrape({ url, mobile: true })).metadata.cacheState).toBe('hit');
    } finally {
      await auto.close();
    }
  }, 30_000);
});
