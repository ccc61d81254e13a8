/**
 * Links to client-side routes in a crawl: a fragment that is a route (`#/guide`, `#!/x`, `#docs/x`) names another page
 * of a single-page app, as `@crawlkit/frontier`'s rules and de-duplication key say, so the crawl follows it; a plain
 * `#section` anchor is the page it is on, followed without its fragment.
 */
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';

let site: FixtureServer;
let base: string;
let ck: Crawlkit;

beforeAll(async () => {
  const shell =
    '<p>The shell of a single-page app, the same for every route.</p>' +
    '<a href="#/guide">Guide</a> <a href="/#/api/v2">API</a> <a href="#!/settings">Settings</a> ' +
    '<a href="#intro">Intro</a> <a href="/docs#usage">Usage</a>';
  site = await startRouteSite({
    '/': (_req, res) => sendPage(res, 'App', shell),
    '/docs': (_req, res) => sendPage(res, 'Docs', '<p>Usage.</p>'),
  });
  base = site.url;
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await site.close();
});

describe('a crawl of links to client-side routes', () => {
  it('follows each route as a page and an anchor as the page it is on', async () => {
    const started = await ck.crawl({ url: `${base}/`, scrapeOptions: { maxAge: 0 } });
    if (!started.success) throw new Error(`crawl refused: ${started.error}`);
    const status = await ck.waitForJob(started.id);
    if (!status.success) throw new Error(`crawl failed: ${status.error}`);
    const pages = status.data.map((d) => d.metadata.sourceURL.slice(base.length)).sort();
    expect(pages).toEqual(['/', '/#!/settings', '/#/api/v2', '/#/guide', '/docs']);
  });
});
