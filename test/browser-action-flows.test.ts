/**
 * Scripted flows over a small web app (`helpers/qa-app.ts`) as a QA engineer writes them, through `scrape()` on real
 * Chromium.
 */
import { type ErrorResponse } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { startQaApp } from './helpers/qa-app.ts';
import { ISOLATED_ARGS } from './helpers/scrape.ts';

const env = useFixtureEngine({
  server: startQaApp,
  crawlkit: { store: 'memory', browser: { args: ISOLATED_ARGS }, timeoutMs: 20_000 },
});

describe('action flows', () => {
  it('names the action a script that never ends stopped at when the time runs out', async () => {
    const response = await env.ck.scrape({
      url: `${env.server.url}/app/keys`,
      maxAge: 0,
      timeout: 6_000,
      actions: [
        { type: 'screenshot' },
        { type: 'executeJavascript', script: 'new Promise(() => {})' },
        { type: 'scrape' },
      ],
    });
    // Before: "Scrape timed out after 6000 ms while …", naming no action.
    expect(response).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT' });
    const error = response as ErrorResponse;
    expect(error.error).toMatch(/^Actions ran out of time \(\d+ ms\) at action 1 \(executeJavascript\)\.$/);
  }, 30_000);
});
