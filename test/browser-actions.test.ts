/**
 * Browser actions as a user writes them, through `scrape()` on real Chromium: the mistakes and misbehaving pages
 * a sequence meets (a selector that cannot parse, a wait or a waitFor longer than the time left, a script that
 * navigates).
 */
import { type ErrorResponse } from 'crawlkit';
import { beforeAll, describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { ISOLATED_ARGS } from './helpers/scrape.ts';

const env = useFixtureEngine({ crawlkit: { store: 'memory', browser: { args: ISOLATED_ARGS }, timeoutMs: 20_000 } });

// Chromium started before the cases: a loaded machine's 4-6 s launch went into the first case's time (10.5 s of the
// download case's 10 s) and, run alone, into the 3-4 s timeouts of the others.
beforeAll(async () => {
  await env.ck.scrape({
    url: `${env.server.url}/js/form.html`,
    maxAge: 0,
    actions: [{ type: 'wait', milliseconds: 1 }],
  });
});

describe('browser actions', () => {
  it('goes on after a click on a link that answers with a download, on the page it was on', async () => {
    const started = Date.now();
    const response = await env.ck.scrape({
      url: `${env.server.url}/js/report-link.html`,
      maxAge: 0,
      actions: [
        { type: 'click', selector: '#report' },
        { type: 'wait', milliseconds: 100 },
      ],
    });
    // Before: the click waited for a document that never came, and the scrape timed out (20 s) at the wait.
    expect(response).toMatchObject({ success: true });
    const doc = (response as { data: { markdown?: string; metadata: { url?: string } } }).data;
    expect(doc.markdown).toContain('The report for this year is ready to download');
    expect(doc.metadata.url).toBe(`${env.server.url}/js/report-link.html`);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 30_000);

  it('fails a wait for a selector that cannot parse at once, saying so', async () => {
    const response = await env.ck.scrape({
      url: `${env.server.url}/js/form.html`,
      maxAge: 0,
      actions: [{ type: 'wait', selector: 'input[' }],
    });
    expect(response).toMatchObject({ success: false, code: 'SCRAPE_ACTION_ERROR' });
    // Before: polled until the page's time ran out (18 s), then 'no element matched before the time ran out'.
    expect((response as ErrorResponse).error).toMatch(/action 0 \(wait "input\["\) failed: invalid selector/);
  }, 30_000);

  it('answers a wait longer than the time left as out of time, not cut short', async () => {
    const response = await env.ck.scrape({
      url: `${env.server.url}/js/form.html`,
      maxAge: 0,
      // Room for the load on a loaded machine: the wait is refused as soon as the actions start, whatever is left.
      timeout: 6_000,
      actions: [{ type: 'wait', milliseconds: 8_000 }],
    });
    // Before: success, the 8 s wait cut to the ~2 s left and the page captured as if it had waited. Then, under load:
    // 'the page's load took 1596 ms of the timeout, leaving the actions 804 ms', as if a faster load left it room.
    expect(response).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT' });
    expect((response as ErrorResponse).error).toMatch(
      /^Actions ran out of time \(\d+ ms\) at action 0 \(wait\): it waits 8000 ms, longer than the time left/,
    );
  }, 30_000);

  it('answers a waitFor that the page left no time for as out of time, not cut short', async () => {
    const response = await env.ck.scrape({
      url: `${env.server.url}/js/api/slow?ms=2500`,
      maxAge: 0,
      timeout: 4_000,
      waitFor: 2_000,
    });
    // Before: success, the 2 s waitFor cut to what the 2.5 s response left and the page captured as if it had waited.
    // Then, under load: 'Loading … timed out' (the load ran to its own deadline first, past the point where waitFor
    // still fitted), or 'of the 3988 ms timeout' (what the fetcher's own work before the browser left of it).
    expect(response).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT' });
    expect((response as ErrorResponse).error).toMatch(
      /in the browser had not finished with \d+ ms of the 4000 ms timeout left, less than waitFor \(2000 ms\) needs after it: raise timeout or lower waitFor\.$/,
    );
  }, 30_000);

  it('follows a script that navigates, as a click', async () => {
    const scripts = {
      "document.querySelector('form').submit()": '/js/search?q=planes',
      "location.href = '/js/nav-target.html'": '/js/nav-target.html',
    };
    for (const [script, target] of Object.entries(scripts)) {
      const response = await env.ck.scrape({
        url: `${env.server.url}/js/form.html`,
        formats: ['markdown'],
        maxAge: 0,
        actions: [
          { type: 'click', selector: '#q' },
          { type: 'write', text: 'planes' },
          { type: 'executeJavascript', script },
          { type: 'scrape' },
        ],
      });
      // Before: SCRAPE_ACTION_ERROR 'Execution context was destroyed' at the script, at the scrape after it, or at
      // the capture (UNKNOWN_ERROR), whichever ran when the new page came.
      expect(response.success, JSON.stringify(response)).toBe(true);
      if (!response.success) return;
      expect(response.data.actions?.scrapes?.[0]?.url).toBe(`${env.server.url}${target}`);
      expect(response.data.metadata.url).toBe(`${env.server.url}${target}`);
    }
  }, 30_000);

  it('returns the value of a script that does not navigate, without waiting for one', async () => {
    const response = await env.ck.scrape({
      url: `${env.server.url}/js/form.html`,
      maxAge: 0,
      actions: [
        { type: 'executeJavascript', script: "history.pushState({}, '', '/js/elsewhere'); document.title" },
        { type: 'executeJavascript', script: 'location.pathname' },
      ],
    });
    expect(response.success, JSON.stringify(response)).toBe(true);
    if (!response.success) return;
    expect(response.data.actions?.javascriptReturns).toEqual([
      { type: 'string', value: 'Search form' },
      { type: 'string', value: '/js/elsewhere' },
    ]);
  }, 30_000);
});
