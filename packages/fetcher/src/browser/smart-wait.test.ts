/**
 * The waits of a page load on pages that never finish: a change that cannot alter what is read (a `transform` each
 * frame, an SVG path) does not hold the page, a change of what is shown (`display`) still does, and a page whose
 * DOMContentLoaded never comes (a deferred script that never arrives) is captured as it is shown.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ISOLATED_ARGS } from '../../../../test/helpers/scrape.ts';
import { emptyShellWarning, NOT_SETTLED_WARNING } from '../engines/not-settled.js';
import { Fetcher } from '../index.js';

const SMART_WAIT_MAX_MS = 2_500;

const PAGES: Record<string, string> = {
  // A hero slider moved each frame, a spinner's SVG arc redrawn each frame.
  '/animated': `<h1>Spring collection</h1><p>Linen shirts, cotton dresses and straw hats.</p>
    <div id="slider" style="width:200px;height:40px;background:#eee">New arrivals</div>
    <svg width="40" height="40"><path id="arc" d="M0 0"/></svg>
    <script>
      function frame(t) {
        document.getElementById('slider').style.transform = 'translateX(' + (t % 300) + 'px)';
        document.getElementById('arc').setAttribute('d', 'M0 0 L' + (t % 40) + ' 20');
        requestAnimationFrame(frame);
      }
      requestAnimationFrame(frame);
    </script>`,
  // A banner shown and hidden by its style, over and over: what is read changes each time.
  '/blinking': `<h1>Sale</h1><p id="banner">Everything half price today.</p>
    <script>
      setInterval(() => {
        const banner = document.getElementById('banner');
        banner.style.display = banner.style.display === 'none' ? 'block' : 'none';
      }, 100);
    </script>`,
  // A tag manager's deferred script from a host that never answers: DOMContentLoaded waits for it forever.
  '/stuck-tag': `<h1>Opening hours</h1><p>Monday to Friday 9:00 to 18:00, Saturday 10:00 to 14:00.</p>
    <script defer src="/never-answers.js"></script>`,
  // An app that shows "Loading…" and renders its view 1.2 s later on a timer: the network and the DOM are quiet
  // meanwhile.
  '/late-view': `<div id="root"><p class="loading">Loading…</p></div>
    <script>setTimeout(() => { document.getElementById('root').innerHTML = '<h2>Order history</h2><p>' +
      ['Three', 'orders', 'were', 'shipped', 'to', 'Lisbon'].join(' ') + ' this month, the last on Tuesday.</p>'; }, 1200);
    </script>`,
  // The same app whose view never comes.
  '/forever-loading': `<div id="root"><div class="spinner"></div><p>Loading…</p></div><script>void 0;</script>`,
  // An empty app shell that renders what its fetch() brings, 2 s after load: one request open, nothing else moving.
  '/shell-data': `<div id="root"></div>
    <script>fetch('/data.json').then((r) => r.json()).then((d) => {
      document.getElementById('root').innerHTML = '<h2>Invoices</h2><p>' + d.text + '</p>'; });</script>`,
  // The same shell whose request never answers.
  '/shell-hanging': `<div id="root"></div>
    <script>fetch('/never-answers.js').then((r) => r.text()).then((t) => {
      document.getElementById('root').textContent = t; });</script>`,
  // An app whose bundle throws before it mounts: nothing is open, nothing will come.
  '/shell-throws': `<div id="root"></div><script>throw new TypeError('config.apiBase is undefined');</script>`,
  // A dashboard that asks for its status every 200 ms, for as long as it is open.
  '/polling': `<h1>Build status</h1><p id="status">All green.</p><input id="filter"><button id="go">Go</button>
    <script>setInterval(() => fetch('/status.json'), 200);</script>`,
  // The same, its requests made unique the ways pollers do so that no cache answers them.
  '/polling-busted': `<h1>Build status</h1><p id="status">All green.</p><input id="filter"><button id="go">Go</button>
    <script>let n = 0; setInterval(() => fetch(n++ % 2 ? '/status.json?_=' + Date.now() : '/status.json?v=2&t=' +
      Math.random()), 200);</script>`,
};

// A wait that ran out takes 8 s with this fetcher, where the others' take 2.5.
const PATIENT_MAX_MS = 8_000;

let server: Server;
let base: string;
let fetcher: Fetcher;
let patient: Fetcher;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/never-answers.js') return;
    if (req.url === '/data.json') {
      const text = 'Seven invoices were paid in November, the last one on the twenty-eighth.';
      return void setTimeout(
        () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text })),
        2_000,
      );
    }
    if (req.url?.startsWith('/status.json'))
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    const body = PAGES[req.url ?? ''];
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>Shop</title></head><body>${body}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fetcher = new Fetcher({ browser: { args: ISOLATED_ARGS, smartWaitMaxMs: SMART_WAIT_MAX_MS } });
  await fetcher.fetch({ url: `${base}/animated`, engine: 'browser' }); // Chromium's start is not the page's wait.
  patient = new Fetcher({ browser: { args: ISOLATED_ARGS, smartWaitMaxMs: PATIENT_MAX_MS } });
  // Its Chromium's start neither: timed with the first page it waited for, it took 9.5 s under two suites' load.
  await patient.fetch({ url: `${base}/animated`, engine: 'browser' });
});

afterAll(async () => {
  await fetcher?.close();
  await patient?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

describe('smart wait', () => {
  it('does not wait for an animation to end: a page that only moves has settled', async () => {
    const result = await fetcher.fetch({ url: `${base}/animated`, engine: 'browser' });
    // Settled: the wait ended before its cap (a clock read beside it failed under load: 2,650 ms for 2,500).
    expect(result.warnings ?? []).not.toContain(NOT_SETTLED_WARNING);
    expect(result.text).toContain('Linen shirts');
  }, 20_000);

  it('captures a page whose DOMContentLoaded never comes as it is shown, said to be still loading', async () => {
    // 8 s, here and below: after the load is given up, the capture has the reserve (a fifth of the timeout) and the
    // steps before a waitFor half of it; at 4 s a loaded pair of suites passed each once (the capture past 800 ms,
    // the steps 86 ms past 400), and the engine rightly answered SCRAPE_TIMEOUT.
    const result = await fetcher.fetch({ url: `${base}/stuck-tag`, engine: 'browser', timeoutMs: 8_000 });
    // Before: SCRAPE_TIMEOUT, the page's text lost.
    expect(result.status).toBe(200);
    expect(result.text).toContain('Monday to Friday 9:00 to 18:00');
    expect(result.warnings).toContain(NOT_SETTLED_WARNING);
    // With a waitFor, the load is given up while the waitFor still fits, and the page is captured after it.
    const started = performance.now();
    const waited = await fetcher.fetch({
      url: `${base}/stuck-tag`,
      engine: 'browser',
      timeoutMs: 8_000,
      waitFor: 1_000,
    });
    // Before: SCRAPE_TIMEOUT 'left 0 ms of the 4000 ms timeout for waitFor (1000 ms)': the load ran to the reserve.
    expect(waited.text).toContain('Monday to Friday 9:00 to 18:00');
    expect(performance.now() - started).toBeGreaterThan(1_000);
  }, 45_000);

  it('tells actions that a page whose DOMContentLoaded never comes left no time, not to raise the timeout', async () => {
    const error = await fetcher
      .fetch({ url: `${base}/stuck-tag`, engine: 'browser', timeoutMs: 6_000, actions: [{ type: 'screenshot' }] })
      .catch((e: unknown) => e);
    // Before: '… the page's load (and the waits before the actions) took 4800 ms of the timeout, leaving the actions
    // no time; raise `timeout`.', though any timeout went to the load just the same.
    expect(error).toMatchObject({
      code: 'SCRAPE_TIMEOUT',
      message: expect.stringMatching(
        /^Actions ran out of time at action 0 \(screenshot\): the page never finished loading \(its DOMContentLoaded had not come after \d+ ms, when the load was given up to capture the page as shown\), leaving the actions (?:no time|\d+ ms); a longer `timeout` gives such a load longer too\. Without the actions the page is captured as shown \(formats: screenshot for its picture\)\.$/,
      ),
    });
  }, 30_000);

  it('names the timeout it was told of when it was given what is left of it (a retried page)', async () => {
    const error = await fetcher
      .fetch({ url: `${base}/never-answers.js`, engine: 'browser', timeoutMs: 1_500, statedTimeoutMs: 4_000 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'SCRAPE_TIMEOUT',
      message: expect.stringMatching(/^Loading \S+ in the browser took longer than the 4000 ms timeout allows/),
    });
  }, 30_000);

  it('answers a page that never answers as a timeout that says what to raise and where the time went', async () => {
    const error = await fetcher
      .fetch({ url: `${base}/never-answers.js`, engine: 'browser', timeoutMs: 2_000 })
      .catch((e: unknown) => e);
    // Before: 'Loading … in the browser timed out.', naming neither the timeout nor what to do.
    expect(error).toMatchObject({
      code: 'SCRAPE_TIMEOUT',
      message: expect.stringMatching(
        /^Loading \S+ in the browser took longer than the 2000 ms timeout allows \(its browser page was ready after \d+ ms\): raise timeout\.$/,
      ),
    });
  }, 20_000);

  it('waits while the page shows only a loading placeholder, not capturing "Loading…"', async () => {
    const result = await fetcher.fetch({ url: `${base}/late-view`, engine: 'browser' });
    // Before: the network and the DOM went quiet after ~0.8 s and the page was captured as "Loading…".
    expect(result.text).toContain('Three orders were shipped to Lisbon');
    expect(result.warnings ?? []).not.toContain(NOT_SETTLED_WARNING);
  }, 20_000);

  it("captures a placeholder that never goes away at the wait's cap, said to be still loading", async () => {
    const result = await fetcher.fetch({ url: `${base}/forever-loading`, engine: 'browser' });
    expect(result.text).toContain('Loading…');
    expect(result.warnings).toContain(NOT_SETTLED_WARNING);
    expect(NOT_SETTLED_WARNING).toContain('loading placeholder');
  }, 20_000);

  it("waits for an empty app shell's request that answers 2 s after load, not capturing the empty shell", async () => {
    const started = performance.now();
    const result = await patient.fetch({ url: `${base}/shell-data`, engine: 'browser' });
    // Before: one request open and nothing new for 1.5 s counted as a quiet network (a long poll's rule), and the
    // empty shell was captured at ~1.8 s: no text, and no warning.
    expect(result.text).toContain('Seven invoices were paid in November');
    expect(result.warnings ?? []).not.toContain(NOT_SETTLED_WARNING);
    expect(performance.now() - started).toBeLessThan(PATIENT_MAX_MS);
  }, 30_000);

  it("captures an empty app shell whose request never answers at the wait's cap, said to be still loading", async () => {
    const result = await fetcher.fetch({ url: `${base}/shell-hanging`, engine: 'browser' });
    // Before: captured empty at ~1.8 s without a warning.
    expect(result.warnings).toContain(NOT_SETTLED_WARNING);
  }, 20_000);

  it('captures an app that threw before it mounted at once, saying it shows no text and why', async () => {
    const started = performance.now();
    const result = await fetcher.fetch({ url: `${base}/shell-throws`, engine: 'browser' });
    // Before: an empty page and no warning at all.
    expect(result.warnings).toEqual([emptyShellWarning('TypeError: config.apiBase is undefined')]);
    expect(result.warnings![0]).toContain('its scripts failed (TypeError: config.apiBase is undefined)');
    expect(performance.now() - started).toBeLessThan(SMART_WAIT_MAX_MS);
  }, 20_000);

  it('still waits while what is shown changes (display toggled)', async () => {
    const result = await fetcher.fetch({ url: `${base}/blinking`, engine: 'browser' });
    expect(result.warnings).toContain(NOT_SETTLED_WARNING);
  }, 20_000);

  describe('a page that polls', () => {
    // A wait that ran out takes 8 s here, where the others' take 2.5: four of them (the load's and each action's)
    // are 32 s, and the bound below is twice what the four waits that end early took at load 20 (7.8 s, where a bound
    // of 3 × 2.5 s failed).
    it.each(['/polling', '/polling-busted'])(
      'does not wait for a page that polls (%s), on load and after each action',
      async (path) => {
        const started = performance.now();
        const result = await patient.fetch({
          url: `${base}${path}`,
          engine: 'browser',
          timeoutMs: 60_000,
          actions: [
            { type: 'click', selector: '#filter' },
            { type: 'write', text: 'main' },
            { type: 'click', selector: '#go' },
          ],
        });
        // Before: the network never went quiet, so the load and each of the three actions waited the whole wait.
        expect(result.warnings ?? []).not.toContain(NOT_SETTLED_WARNING);
        expect(performance.now() - started).toBeLessThan(2 * PATIENT_MAX_MS);
        expect(result.text).toContain('All green.');
      },
      60_000,
    );
  });
});
