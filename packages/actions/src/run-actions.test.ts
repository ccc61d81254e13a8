import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../../../fixtures/server.ts';
import { useBrowserContext } from '../../fetcher/src/browser/__fixtures__/browser-harness.ts';
import { isActionError, runActions, type Action } from './index.js';

let server: FixtureServer;
const browser = useBrowserContext();
let page: Page;

beforeAll(async () => {
  server = await startFixtureServer();
});

afterAll(async () => {
  await server?.close();
});

beforeEach(async () => {
  page = await browser.context.newPage();
  await page.setViewport({ width: 1024, height: 700 });
});

afterEach(async () => {
  await page.close();
});

/** The fixture pages that fetch their first rows after load, and when those are in. */
const READY: Record<string, string> = {
  '/js/load-more.html': "document.querySelectorAll('li.item').length === 10",
  '/js/infinite.html': "document.querySelectorAll('.row').length === 10 && !loading",
};

// Waiting for the page's own first rows instead of `networkidle0`, whose 500 ms of quiet every open paid.
async function open(path: string): Promise<void> {
  await page.goto(server.url + path, { waitUntil: 'load' });
  if (READY[path]) await page.waitForFunction(READY[path], { timeout: 10_000 });
}

async function run(actions: Action[]) {
  return runActions(page, actions, { timeoutMs: 20_000 });
}

const count = (selector: string): Action => ({
  type: 'executeJavascript',
  script: `document.querySelectorAll(${JSON.stringify(selector)}).length`,
});

describe('runActions', () => {
  it('clicks a "load more" button until the list is complete, and scrapes the result', async () => {
    await open('/js/load-more.html');
    const results = await run([
      { type: 'click', selector: '#load-more' },
      { type: 'click', selector: '#load-more' },
      count('li.item'),
      { type: 'scrape' },
    ]);
    expect(results.javascriptReturns).toEqual([{ type: 'number', value: 30 }]);
    expect(results.scrapes[0]!.url).toBe(`${server.url}/js/load-more.html`);
    expect(results.scrapes[0]!.html).toContain('Item 30');
  });

  it('clicks every match with `all` and only the first without', async () => {
    await open('/js/load-more.html');
    const first = await run([{ type: 'click', selector: 'li.item' }, count('li[data-clicked]')]);
    expect(first.javascriptReturns[0]!.value).toBe(1);
    const all = await run([{ type: 'click', selector: 'li.item', all: true }, count('li[data-clicked]')]);
    expect(all.javascriptReturns[0]!.value).toBe(10);
  });

  it('scrolls an infinite list down to load more rows, and back up', async () => {
    await open('/js/infinite.html');
    const actions: Action[] = [
      { type: 'scroll', direction: 'down' },
      { type: 'scroll', direction: 'down' },
      { type: 'scroll' },
      count('.row'),
      { type: 'scroll', direction: 'up' },
      { type: 'executeJavascript', script: 'window.scrollY' },
    ];
    // The list loads its next rows only once the previous load is done: each scroll settles when the page says its
    // load is over (its `loading` flag, after two frames, by when the scroll event has run and started one), not
    // after a fixed pause or a network-idle window, which a loaded machine outlasts between the fetch and its rows.
    const results = await runActions(page, actions, {
      timeoutMs: 20_000,
      settle: async (remainingMs) => {
        await page.evaluate(() => new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame))));
        await page.waitForFunction('!loading', { timeout: remainingMs });
      },
    });
    expect(results.javascriptReturns[0]!.value as number).toBeGreaterThanOrEqual(30);
    const afterUp = results.javascriptReturns[1]!.value as number;
    expect(afterUp).toBeGreaterThan(0);
  });

  it('scrolls a scrollable element by its own height', async () => {
    await open('/js/long.html');
    await page.evaluate(`(() => {
      const box = document.createElement('div');
      box.id = 'box';
      box.style.cssText = 'height:100px;overflow:auto';
      box.innerHTML = '<div style="height:1000px">tall</div>';
      document.body.prepend(box);
    })()`);
    const results = await run([
      { type: 'scroll', selector: '#box', direction: 'down' },
      { type: 'executeJavascript', script: "document.getElementById('box').scrollTop" },
    ]);
    expect(results.javascriptReturns[0]!.value).toBe(100);
  });

  it('types into a form and presses Enter, following the navigation', async () => {
    await open('/js/form.html');
    const results = await run([
      { type: 'click', selector: '#q' },
      { type: 'write', text: 'crawl kit' },
      { type: 'press', key: 'Enter' },
      { type: 'scrape' },
    ]);
    expect(results.scrapes[0]!.url).toBe(`${server.url}/js/search?q=crawl+kit`);
    expect(results.scrapes[0]!.html).toContain('Results for crawl kit');
  });

  it('presses a character the US layout has no key for as typed text', async () => {
    await open('/js/form.html');
    const results = await run([
      { type: 'click', selector: '#q' },
      { type: 'press', key: 'é' },
      { type: 'press', key: 'Shift+ß' },
      { type: 'executeJavascript', script: "document.querySelector('#q').value" },
    ]);
    // Before: SCRAPE_ACTION_ERROR 'action 1 (press) failed: Unknown key: "é"'.
    expect(results.javascriptReturns).toEqual([{ type: 'string', value: 'éß' }]);
  });

  it('follows navigations caused by a link click and by a script after a click', async () => {
    await open('/js/nav.html');
    const byLink = await run([{ type: 'click', selector: '#link' }, { type: 'scrape' }]);
    expect(byLink.scrapes[0]!.url).toBe(`${server.url}/js/nav-target.html`);
    expect(byLink.scrapes[0]!.html).toContain('Arrived at the target page');
    await open('/js/nav.html');
    const byScript = await run([{ type: 'click', selector: '#scripted' }, { type: 'scrape' }]);
    expect(byScript.scrapes[0]!.url).toBe(`${server.url}/js/nav-target.html?via=script`);
  });

  it('waits for a selector and for a number of milliseconds', async () => {
    await page.goto(`${server.url}/js/rendered.html`, { waitUntil: 'domcontentloaded' });
    const started = Date.now();
    const results = await run([
      { type: 'wait', selector: '#content article h1' },
      { type: 'wait', milliseconds: 250 },
      { type: 'executeJavascript', script: "document.querySelector('h1').textContent" },
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(results.javascriptReturns[0]).toEqual({ type: 'string', value: 'Content that only JavaScript shows' });
  });

  it('takes screenshots (PNG, JPEG with quality, custom viewport, full page)', async () => {
    await open('/js/long.html');
    const results = await run([
      { type: 'screenshot' },
      { type: 'screenshot', quality: 50 },
      { type: 'screenshot', viewport: { width: 320, height: 240 } },
      { type: 'screenshot', fullPage: true },
    ]);
    const [png, jpeg, small, full] = results.screenshots.map((s) => s);
    expect(png).toMatch(/^data:image\/png;base64,/);
    expect(jpeg).toMatch(/^data:image\/jpeg;base64,/);
    const size = (dataUrl: string) => {
      const bytes = Buffer.from(dataUrl.split(',')[1]!, 'base64');
      return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
    };
    expect(size(png!)).toEqual({ width: 1024, height: 700 });
    expect(size(small!)).toEqual({ width: 320, height: 240 });
    expect(size(full!).height).toBeGreaterThanOrEqual(3000);
    // The viewport is restored after a capture with its own viewport.
    expect(page.viewport()).toMatchObject({ width: 1024, height: 700 });
  });

  it('prints PDFs as data URLs, or as files under outputDir', async () => {
    await open('/js/nav-target.html');
    const inline = await run([{ type: 'pdf', format: 'A4', landscape: true, scale: 0.8 }]);
    expect(inline.pdfs[0]).toMatch(/^data:application\/pdf;base64,/);
    expect(Buffer.from(inline.pdfs[0]!.split(',')[1]!, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    const dir = mkdtempSync(join(tmpdir(), 'crawlkit-actions-'));
    try {
      const files = await runActions(page, [{ type: 'pdf' }, { type: 'screenshot' }], { outputDir: dir });
      expect(files.pdfs[0]!.startsWith(dir)).toBe(true);
      expect(readFileSync(files.pdfs[0]!).subarray(0, 5).toString()).toBe('%PDF-');
      expect(existsSync(files.screenshots[0]!)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('returns executeJavascript values with their type, for expressions, programs and `return` bodies', async () => {
    await open('/js/nav-target.html');
    const results = await run([
      { type: 'executeJavascript', script: 'document.title' },
      { type: 'executeJavascript', script: 'const a = 20; a + 22' },
      { type: 'executeJavascript', script: 'const n = await Promise.resolve(2); return { n, list: [1, "x"] };' },
      { type: 'executeJavascript', script: 'undefined' },
      { type: 'executeJavascript', script: "document.querySelector('h1')" },
    ]);
    expect(results.javascriptReturns).toEqual([
      { type: 'string', value: 'Navigation target' },
      { type: 'number', value: 42 },
      { type: 'object', value: { n: 2, list: [1, 'x'] } },
      { type: 'undefined', value: null },
      { type: 'object', value: '<h1>Arrived at the target page</h1>' },
    ]);
  });

  it('returns what JSON cannot hold as the nearest JSON, not as {} or "[object Object]"', async () => {
    await open('/js/nav-target.html');
    const results = await run([
      { type: 'executeJavascript', script: "new Map([['a', 1], [2, new Set(['x', 'y'])]])" },
      { type: 'executeJavascript', script: 'const o = { name: "loop", list: [1] }; o.self = o; o.list.push(o); o' },
      { type: 'executeJavascript', script: 'const shared = { v: 1 }; [shared, shared]' },
      {
        type: 'executeJavascript',
        script: "({ e: new TypeError('bad'), n: NaN, big: 10n, bytes: new Uint8Array([1, 2]) })",
      },
      {
        type: 'executeJavascript',
        script: '({ at: new Date(Date.UTC(2026, 0, 2)), gone: undefined, f: function named() {} })',
      },
    ]);
    expect(results.javascriptReturns).toEqual([
      {
        type: 'object',
        value: [
          ['a', 1],
          [2, ['x', 'y']],
        ],
      },
      { type: 'object', value: { name: 'loop', list: [1, '[Circular]'], self: '[Circular]' } },
      { type: 'object', value: [{ v: 1 }, { v: 1 }] },
      { type: 'object', value: { e: { name: 'TypeError', message: 'bad' }, n: 'NaN', big: '10', bytes: [1, 2] } },
      { type: 'object', value: { at: '2026-01-02T00:00:00.000Z', f: 'function named() {}' } },
    ]);
  });

  it('refuses a value far over the size limit without writing it all', async () => {
    await open('/js/nav-target.html');
    const error = await runActions(
      page,
      [{ type: 'executeJavascript', script: 'Array.from({ length: 1e5 }, (_, i) => ({ i }))' }],
      {
        maxJavascriptReturnBytes: 1000,
      },
    ).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/more than the limit of 1000 bytes/);
  });

  it('refuses a return value over the size limit, naming the action', async () => {
    await open('/js/nav-target.html');
    const error = await runActions(page, [{ type: 'executeJavascript', script: "'x'.repeat(5000)" }], {
      maxJavascriptReturnBytes: 1000,
    }).catch((e: unknown) => e);
    expect(isActionError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'SCRAPE_ACTION_ERROR', index: 0, type: 'executeJavascript' });
    expect((error as Error).message).toMatch(/5002 bytes, over the limit of 1000/);
  });

  it('refuses to scrape a page whose script built a document over the size limit, naming the action', async () => {
    await open('/js/load-more.html');
    const grow = { type: 'executeJavascript' as const, script: "document.body.append('x'.repeat(30000))" };
    const error = await runActions(page, [grow, { type: 'scrape' }], { maxScrapeChars: 20_000 }).catch(
      (e: unknown) => e,
    );
    expect(isActionError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'SCRAPE_ACTION_ERROR', index: 1, type: 'scrape' });
    expect((error as Error).message).toMatch(/document is \d+ characters long, over the limit of 20000/);
    // Under the limit, the same page is scraped whole.
    const { scrapes } = await runActions(page, [{ type: 'scrape' }], { maxScrapeChars: 100_000 });
    expect(scrapes[0]!.html).toContain('x'.repeat(30000));
    expect(scrapes[0]!.html).toMatch(/^<!DOCTYPE html>/i);
  });

  it('names the index, type and selector of a failing action', async () => {
    await open('/js/nav-target.html');
    const error = await run([
      { type: 'wait', milliseconds: 1 },
      { type: 'click', selector: '#missing' },
    ]).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'SCRAPE_ACTION_ERROR',
      index: 1,
      type: 'click',
      selector: '#missing',
      noMatch: true,
    });
    expect((error as Error).message).toContain('action 1 (click "#missing") failed: no element matches the selector');
  });

  it('fails a selector wait that never matches within the budget, and a key that does not exist', async () => {
    await open('/js/nav-target.html');
    const waited = await runActions(page, [{ type: 'wait', selector: '#never' }], { timeoutMs: 300 }).catch(
      (e: unknown) => e,
    );
    expect(waited).toMatchObject({ code: 'SCRAPE_ACTION_ERROR', index: 0, selector: '#never', noMatch: true });
    // Before: '… failed: no element matched before the time ran out', not saying how long nor what to change.
    expect((waited as Error).message).toMatch(
      /failed: no element matched before the time ran out \(it waited \d+ ms, what the timeout had left: check the selector, or raise `timeout` if the element comes later\)$/,
    );
    const pressed = await run([{ type: 'press', key: 'NoSuchKey' }]).catch((e: unknown) => e);
    expect(pressed).toMatchObject({ code: 'SCRAPE_ACTION_ERROR', index: 0, type: 'press' });
    expect((pressed as { noMatch?: boolean }).noMatch).toBeUndefined();
    expect((pressed as Error).message).toMatch(/Unknown key/);
  });

  it('names a wait longer than the whole time, and the load for a wait it left no time for', async () => {
    await open('/js/nav-target.html');
    // The load took 2 s of the timeout and left the actions 500 ms.
    const budget = { timeoutMs: 500, loadMs: 2_000 };
    const tooLong = await runActions(page, [{ type: 'wait', milliseconds: 8_000 }], budget).catch((e: unknown) => e);
    // Before: 'the page's load (and the waits before the actions) took 2000 ms of the timeout, leaving the actions
    // 500 ms', though no load would have left an 8 s wait room in 2.5 s.
    expect((tooLong as Error).message).toBe(
      'Actions ran out of time (500 ms) at action 0 (wait): it waits 8000 ms, longer than the time left (raise the timeout).',
    );
    const starved = await runActions(page, [{ type: 'wait', milliseconds: 1_000 }], budget).catch((e: unknown) => e);
    expect((starved as Error).message).toMatch(
      /^Actions ran out of time at action 0 \(wait\): the page's load .* took 2000 ms/,
    );
  });

  it('stops at once, with its evidence, when the load left the actions no time', async () => {
    await open('/js/nav-target.html');
    let sessions = 0;
    const watched = new Proxy(page, {
      get(target, key) {
        if (key === 'createCDPSession') sessions += 1;
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    });
    const error = await runActions(watched, [{ type: 'executeJavascript', script: '1' }], {
      timeoutMs: 1,
      loadMs: 2_900,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SCRAPE_TIMEOUT', index: 0 });
    expect((error as Error).message).toContain('leaving the actions no time');
    expect((error as { details?: { screenshot?: string } }).details?.screenshot).toMatch(/^data:image\/png;base64,/);
    // Before: the popup watch's CDP session was opened first, two round trips out of the capture's reserve, which a
    // loaded Chromium answered late enough for the scrape's own timeout to win (its message then named no action).
    expect(sessions).toBe(0);
  });

  it('stops when the signal aborts', async () => {
    await open('/js/nav-target.html');
    const controller = new AbortController();
    // Aborted as soon as the wait listens for it: a timer of 100 ms raced the CDP calls made before the first action,
    // which a loaded machine outlasted (then nothing had run: index 0).
    const listen = controller.signal.addEventListener.bind(controller.signal);
    controller.signal.addEventListener = ((...args: Parameters<typeof listen>) => {
      listen(...args);
      if (args[0] === 'abort') setImmediate(() => controller.abort());
    }) as typeof listen;
    const error = await runActions(page, [{ type: 'wait', milliseconds: 5_000 }, { type: 'scrape' }], {
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ABORTED', index: 1 });
  });
});
