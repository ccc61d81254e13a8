/**
 * The cookie-banner step ends with the page load's abort: before, it ignored the signal and ran on up to its 4 s
 * budget (autoconsent waiting for a CMP's opt-out that never comes), its timers and the page's function held after
 * the scrape had given up. A real Chromium page whose CMP is detected and never answers.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, expect, it } from 'vitest';

import { useBrowserContext } from './__fixtures__/browser-harness.js';
import { dismissCookieBanners } from './cookie-banners.js';

// A CMP root (so autoconsent runs) that says a popup is found as soon as autoconsent listens, and never opts out.
const STUCK_CMP = `<!doctype html><title>Stuck consent</title><p>An article.</p>
<div id="cmpbox"><p>We use cookies.</p></div>
<script>
  const poll = setInterval(() => {
    if (typeof window.autoconsentSendMessage !== 'function') return;
    clearInterval(poll);
    window.autoconsentSendMessage({ type: 'popupFound', cmp: 'Stuck CMP' }).then(() => fetch('/listening'));
  }, 10);
</script>`;

let server: Server;
let base: string;
let listening: (() => void) | undefined;
let heardCount = 0;
const browser = useBrowserContext();

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/listening') {
      heardCount++;
      listening?.();
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(STUCK_CMP);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

it('ends as soon as the load is aborted, with what it saw', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${base}/stuck`, { waitUntil: 'domcontentloaded' });
  const heard = new Promise<void>((resolve) => (listening = resolve));
  const abort = new AbortController();
  const dismissing = dismissCookieBanners(page, 10_000, abort.signal);
  await heard;
  const abortedAt = performance.now();
  abort.abort(new Error('The scrape was aborted.'));
  const outcome = await dismissing;
  // Before: it ended with its budget, ~4 s after the start (≈3.9 s after this abort).
  expect(performance.now() - abortedAt).toBeLessThan(2_000);
  // `#cmpbox` is also consentmanager.net's root: under load autoconsent's own rule can find it before the page speaks.
  expect(outcome).toEqual({
    cmp: expect.stringMatching(/^(Stuck CMP|consentmanager\.net)$/),
    optedOut: false,
    removed: 0,
  });
  await page.close();
}, 30_000);

it('does nothing on a page whose load was aborted before it', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${base}/stuck`, { waitUntil: 'domcontentloaded' });
  const before = heardCount;
  const outcome = await dismissCookieBanners(page, 10_000, AbortSignal.abort());
  expect(outcome).toEqual({ optedOut: false, removed: 0 });
  // Autoconsent was not started: the page never saw it listen.
  expect(
    await page.evaluate(() => typeof (window as { autoconsentSendMessage?: unknown }).autoconsentSendMessage),
  ).toBe('undefined');
  expect(heardCount).toBe(before);
  await page.close();
}, 30_000);
