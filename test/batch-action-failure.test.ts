/**
 * A batch page whose action flow fails: its error is stored in v2's job error shape (`{ id, timestamp, url, code,
 * error }`), which has no `details`, so no picture of the failed page is taken for it. Before, each such page spent
 * up to a second on a screenshot that went nowhere, and with `browser.screenshotDir` left a file nothing pointed to.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import type { CrawlkitEvents } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { startQaApp } from './helpers/qa-app.ts';
import { ISOLATED_ARGS } from './helpers/scrape.ts';

let shotsDir = '';
const env = useFixtureEngine({
  server: startQaApp,
  crawlkit: (dir) => {
    shotsDir = join(dir, 'shots');
    return { store: 'memory', browser: { args: ISOLATED_ARGS, screenshotDir: shotsDir }, timeoutMs: 20_000 };
  },
});

describe('a batch whose action flow fails', () => {
  it('stores each page error in the v2 shape and takes no failure screenshot for it', async () => {
    const events: CrawlkitEvents['error'][0][] = [];
    env.ck.on('error', (event) => events.push(event));
    const urls = [`${env.server.url}/app/checkout`, `${env.server.url}/app/paid`];
    const started = await env.ck.batchScrape({
      urls,
      maxAge: 0,
      actions: [{ type: 'click', selector: '#coupon' }],
    });
    if (!started.success) throw new Error(started.error);
    const done = await env.ck.waitForJob(started.id);
    expect(done).toMatchObject({ status: 'completed', completed: 0 });

    const errors = await env.ck.getBatchScrapeErrors(started.id);
    if (!('errors' in errors)) throw new Error(errors.error);
    expect(errors.errors.map((e) => e.url).sort()).toEqual(urls);
    for (const error of errors.errors) {
      expect(Object.keys(error).sort()).toEqual(['code', 'error', 'id', 'timestamp', 'url']);
      expect(error.code).toBe('SCRAPE_ACTION_ERROR');
      expect(error.error).toMatch(/action 0 \(click "#coupon"\) failed: no element matches the selector/);
    }
    // What the flow had is still told to the engine's `error` event, without the picture nothing keeps.
    expect(events).toHaveLength(2);
    for (const event of events) {
      expect(event.error.details).toMatchObject({ action: { index: 0, type: 'click', selector: '#coupon' } });
      expect(event.error.details).not.toHaveProperty('screenshot');
    }
    // Before: two `.png` files here, one a failed page, that no stored error named.
    expect(existsSync(shotsDir) ? readdirSync(shotsDir) : []).toEqual([]);
  }, 60_000);
});
