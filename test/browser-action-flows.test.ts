/**
 * Scripted flows over a small web app (`helpers/qa-app.ts`) as a QA engineer writes them, through `scrape()` on real
 * Chromium: what a failing flow leaves as evidence, a flow that runs out of time, keys with modifiers, clicks on
 * elements a user could not click yet.
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

interface Details {
  action: { index: number; type: string; selector?: string };
  url: string;
  actions: { screenshots: string[]; scrapes: { url: string }[]; javascriptReturns: unknown[]; pdfs: string[] };
  screenshot?: string;
}

describe('action flows', () => {
  it('keeps what the actions before a failing one produced, and a picture of the page when it failed', async () => {
    const response = await env.ck.scrape({
      url: `${env.server.url}/app/checkout`,
      maxAge: 0,
      actions: [
        { type: 'screenshot' },
        { type: 'click', selector: '#address' },
        { type: 'write', text: '1 Main St' },
        { type: 'click', selector: '#next' },
        { type: 'executeJavascript', script: "document.querySelector('#shown').textContent" },
        { type: 'click', selector: '#pay' },
        { type: 'scrape' },
        { type: 'click', selector: '#coupon' },
        { type: 'screenshot' },
      ],
    });
    // Before: only the message; the screenshot, the script's value and the scrape of the receipt page were lost.
    expect(response).toMatchObject({ success: false, code: 'SCRAPE_ACTION_ERROR' });
    const error = response as ErrorResponse;
    expect(error.error).toMatch(/action 7 \(click "#coupon"\) failed: no element matches the selector/);
    const details = error.details as Details;
    expect(details.action).toEqual({ index: 7, type: 'click', selector: '#coupon' });
    expect(details.url).toBe(`${env.server.url}/app/paid`);
    expect(details.actions.screenshots).toHaveLength(1);
    expect(details.actions.screenshots[0]).toMatch(/^data:image\/png;base64,/);
    expect(details.actions.javascriptReturns).toEqual([{ type: 'string', value: '1 Main St' }]);
    expect(details.actions.scrapes).toEqual([
      { url: `${env.server.url}/app/paid`, html: expect.stringContaining('Thank you') },
    ]);
    expect(details.actions.pdfs).toEqual([]);
    expect(details.screenshot).toMatch(/^data:image\/png;base64,/);
  }, 30_000);

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
    // Before: "Loading … in the browser took longer than 4000 ms.", naming no action, the screenshot lost.
    expect(response).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT' });
    const error = response as ErrorResponse;
    expect(error.error).toMatch(/^Actions ran out of time \(\d+ ms\) at action 1 \(executeJavascript\)\.$/);
    expect((error.details as Details).actions.screenshots).toHaveLength(1);
  }, 30_000);

  it('presses keys with modifiers held, as Playwright writes them', async () => {
    const response = await env.ck.scrape({
      url: `${env.server.url}/app/keys`,
      maxAge: 0,
      actions: [
        { type: 'click', selector: '#k' },
        { type: 'press', key: 'Control+a' },
        { type: 'press', key: 'Control+Shift+ArrowLeft' },
        { type: 'press', key: 'Shift++' },
        { type: 'press', key: 'x' },
        { type: 'executeJavascript', script: "document.querySelector('#keys').textContent.trim()" },
      ],
    });
    // Before: SCRAPE_ACTION_ERROR 'action 1 (press) failed: Unknown key: "Control+a"'.
    expect(response).toMatchObject({ success: true });
    const [typed] = (response as { data: { actions: { javascriptReturns: { value: string }[] } } }).data.actions
      .javascriptReturns;
    expect(
      typed!.value.split(' ').filter((k) => !/\+(Control|Shift)$/.test(k) && !['Control', 'Shift'].includes(k)),
    ).toEqual(['Ctrl+a', 'Ctrl+Shift+ArrowLeft', 'Shift++', 'x']);
  }, 30_000);

  it('refuses a key combination whose modifier is not one, before loading the page', async () => {
    const response = await env.ck.scrape({
      url: `${env.server.url}/app/keys`,
      actions: [{ type: 'press', key: 'Ctrl+a' }],
    });
    expect(response).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect((response as ErrorResponse).error).toMatch(
      /actions\[0\]\.key: must be a key, or modifiers and a key joined by "\+" \(modifiers: Shift, Control, Alt/,
    );
  });

  it('clicks an element under an overlay by script, saying so, and waits for a disabled one to be enabled', async () => {
    const modal = await env.ck.scrape({
      url: `${env.server.url}/app/modal`,
      maxAge: 0,
      actions: [
        { type: 'click', selector: '#open' },
        { type: 'executeJavascript', script: "document.querySelector('#state').textContent" },
      ],
    });
    // Before: the mouse clicked the overlay at the button's centre; success, the button never clicked, nothing said.
    expect(modal).toMatchObject({
      success: true,
      data: { actions: { javascriptReturns: [{ type: 'string', value: 'opened' }] } },
    });
    expect((modal as { data: { warning?: string } }).data.warning).toMatch(
      /click "#open": <div id="overlay"> covered the element at its centre, so it was clicked by script/,
    );
    const late = await env.ck.scrape({
      url: `${env.server.url}/app/late?ms=1000`,
      maxAge: 0,
      actions: [
        { type: 'click', selector: '#buy' },
        { type: 'executeJavascript', script: "document.querySelector('#bought').textContent" },
      ],
    });
    // Before: the click on the disabled button did nothing, and the flow went on as if it had.
    expect(late).toMatchObject({
      success: true,
      data: { actions: { javascriptReturns: [{ type: 'string', value: 'yes' }] } },
    });
    const never = await env.ck.scrape({
      url: `${env.server.url}/app/late?ms=60000`,
      maxAge: 0,
      timeout: 6_000,
      actions: [{ type: 'click', selector: '#buy' }],
    });
    expect(never).toMatchObject({ success: false, code: 'SCRAPE_ACTION_ERROR' });
    expect((never as ErrorResponse).error).toMatch(/action 0 \(click "#buy"\) failed: the element stayed disabled/);
  }, 40_000);

  it('says so when a write finds no element with the focus, and types into the field that has it', async () => {
    const response = await env.ck.scrape({
      url: `${env.server.url}/app/login`,
      maxAge: 0,
      actions: [
        { type: 'write', text: 'alice' },
        { type: 'click', selector: '#user' },
        { type: 'write', text: 'bob' },
        { type: 'executeJavascript', script: "document.querySelector('#user').value" },
      ],
    });
    // Before: success and no word of the first write, whose text went nowhere.
    expect(response).toMatchObject({
      success: true,
      data: { actions: { javascriptReturns: [{ type: 'string', value: 'bob' }] } },
    });
    const warning = (response as { data: { warning?: string } }).data.warning ?? '';
    expect(warning).toContain('write "alice": no element had the focus, so the text was typed into the page itself');
    expect(warning).not.toContain('write "bob"');
  }, 30_000);

  it('names the iframe a selector matches in, which actions do not reach, and clicks into open shadow roots', async () => {
    const response = await env.ck.scrape({
      url: `${env.server.url}/app/frames`,
      maxAge: 0,
      actions: [
        { type: 'click', selector: '#host >>> #shadow-btn' },
        { type: 'executeJavascript', script: "document.querySelector('#host').shadowRoot.textContent" },
        { type: 'click', selector: '#in-frame' },
      ],
    });
    // Before: 'no element matches the selector', though the button was on the page, inside its iframe.
    expect(response).toMatchObject({ success: false, code: 'SCRAPE_ACTION_ERROR' });
    expect((response as ErrorResponse).error).toContain(
      `action 2 (click "#in-frame") failed: no element of the page matches the selector; one inside the iframe of ` +
        `${env.server.url}/app/frame does, and actions reach only the page itself`,
    );
    expect((response as ErrorResponse).details).toMatchObject({
      action: { index: 2 },
      actions: { javascriptReturns: [{ type: 'string', value: 'Shadowclicked' }] },
    });
  }, 30_000);

  it('names the iframe a selector that a wait ran out of time on matches in', async () => {
    const response = await env.ck.scrape({
      url: `${env.server.url}/app/frames`,
      maxAge: 0,
      // The wait runs out with the timeout. A load (page and iframe) of more than half the timeout is told as the
      // load's SCRAPE_TIMEOUT instead, which 3 s gave on a loaded machine (two suites at once).
      timeout: 6_000,
      actions: [{ type: 'wait', selector: '#in-frame' }],
    });
    // Before: 'no element matched before the time ran out', though the button was there, inside the iframe.
    expect(response).toMatchObject({ success: false, code: 'SCRAPE_ACTION_ERROR' });
    expect((response as ErrorResponse).error).toContain(
      `action 0 (wait "#in-frame") failed: no element of the page matched before the time ran out; one inside the ` +
        `iframe of ${env.server.url}/app/frame does, and actions reach only the page itself`,
    );
  }, 30_000);

  it('says which action opened a popup, and that the actions stayed on their page', async () => {
    const response = await env.ck.scrape({
      url: `${env.server.url}/app/popup`,
      maxAge: 0,
      actions: [
        { type: 'click', selector: '#help' },
        { type: 'click', selector: '#win' },
        { type: 'executeJavascript', script: 'location.pathname' },
      ],
    });
    // Before: success and not a word; the popups were closed as they opened, the flow went on on the opener.
    expect(response).toMatchObject({
      success: true,
      data: { actions: { javascriptReturns: [{ type: 'string', value: '/app/popup' }] } },
    });
    const warning = (response as { data: { warning?: string } }).data.warning ?? '';
    expect(warning).toContain(
      `action 0 (click "#help") asked to open a new window (${env.server.url}/app/help), which is not followed: the ` +
        'actions stay on the page they started on, so the ones after it ran there',
    );
    expect(warning).toContain(
      `action 1 (click "#win") asked to open a new window (${env.server.url}/app/help?from=script)`,
    );
  }, 30_000);

  it("says the page's load used up the timeout when it leaves the actions no time", async () => {
    const response = await env.ck.scrape({
      url: `${env.server.url}/app/ticking`,
      maxAge: 0,
      // A fifth of it is kept for what follows the actions (their failure's picture, the answer): 800 ms under load.
      timeout: 4_000,
      actions: [{ type: 'click', selector: '#go' }],
    });
    // Before: 'Actions ran out of time (1 ms) at action 0 (click "#go").', which read as a bug.
    expect(response).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT' });
    expect((response as ErrorResponse).error).toMatch(
      /^Actions ran out of time at action 0 \(click "#go"\): the page's load \(and the waits before the actions\) took \d+ ms of the timeout, leaving the actions no time; raise `timeout`\.$/,
    );
  }, 30_000);
});
