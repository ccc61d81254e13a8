/**
 * The browser path of `scrape()` end to end: v2 bodies in, v2 documents out, rendered by real Chromium on the fixture
 * site. The fetcher's own tests cover each browser option in depth; these prove the public API wires them through.
 */
import { MAX_SCREENSHOT_HEIGHT } from '@crawlkit/actions';
import { type ErrorResponse } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { data, ISOLATED_ARGS } from './helpers/scrape.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';

// Chromium may only reach the fixture server.
const env = useFixtureEngine({ crawlkit: { store: 'memory', browser: { args: ISOLATED_ARGS }, timeoutMs: 20_000 } });

describe('scrape in the browser', () => {
  it('renders a page whose content only JavaScript produces, and says why the browser served it', async () => {
    const doc = data(await env.ck.scrape({ url: `${env.server.url}/js/app-shell.html`, maxAge: 0 }));
    expect(doc.markdown).toContain('Content that only JavaScript shows');
    expect(doc.metadata.engineReason).toBeTruthy();
    expect(doc.metadata.statusCode).toBe(200);
  }, 30_000);

  it("lists a rendered windows-1252 page's links with their query in windows-1252, as Chromium sends it", async () => {
    const url = `${env.server.url}/http/windows-1252-query-links`;
    // waitFor takes the page to the browser
    const doc = data(await env.ck.scrape({ url, waitFor: 1, formats: ['links'], maxAge: 0 }));
    expect(doc.metadata.engine).toBe('browser');
    expect(doc.links).toEqual([
      `${env.server.url}/http/query-echo/%C3%BC?q=M%FCller&page=2#top`,
      `${env.server.url}/http/query-echo/plain?name=Jos%E9`,
    ]);
  }, 30_000);

  it('returns a screenshot as a PNG data URL, and a JPEG one with quality', async () => {
    const png = data(
      await env.ck.scrape({ url: `${env.server.url}/js/rendered.html`, formats: ['screenshot'], maxAge: 0 }),
    );
    expect(png.screenshot).toMatch(/^data:image\/png;base64,/);
    expect(Buffer.from(png.screenshot!.split(',')[1]!, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(png.markdown).toBeUndefined();

    const jpeg = data(
      await env.ck.scrape({
        url: `${env.server.url}/js/rendered.html`,
        formats: [{ type: 'screenshot', fullPage: true, quality: 50 }],
        maxAge: 0,
      }),
    );
    expect(jpeg.screenshot).toMatch(/^data:image\/jpeg;base64,/);
  }, 30_000);

  it('cuts a full-page screenshot of a very tall page at MAX_SCREENSHOT_HEIGHT, and says so', async () => {
    const shot = async (sections: number) => {
      const doc = data(
        await env.ck.scrape({
          url: `${env.server.url}/js/long-reference.html?sections=${sections}`,
          formats: [{ type: 'screenshot', fullPage: true, quality: 60, viewport: { width: 320, height: 480 } }],
          maxAge: 0,
        }),
      );
      expect(doc.screenshot).toMatch(/^data:image\/jpeg;base64,/);
      return { doc, height: jpegHeight(Buffer.from(doc.screenshot!.split(',')[1]!, 'base64')) };
    };
    const tall = await shot(160);
    expect(tall.height).toBe(MAX_SCREENSHOT_HEIGHT);
    expect(tall.doc.warning).toMatch(/The full-page screenshot was cut at 16384 px: the page is \d{5,} px tall\./);
    const short = await shot(10);
    expect(short.height).toBeGreaterThan(480);
    expect(short.height).toBeLessThan(MAX_SCREENSHOT_HEIGHT);
    expect(short.doc.warning).toBeUndefined();
  }, 60_000);

  it('says which options a file download could not honour (a PDF asked for with a screenshot)', async () => {
    const doc = data(
      await env.ck.scrape({
        url: `${env.server.url}/files/report.pdf`,
        formats: ['markdown', 'screenshot'],
        maxAge: 0,
      }),
    );
    expect(doc.metadata.engineReason).toBe('download');
    expect(doc.markdown).toBeTruthy();
    expect(doc.screenshot).toBeUndefined();
    expect(doc.warning).toBe(
      'The engine used does not support the following features: screenshot -- your scrape may be partial.',
    );
  }, 30_000);

  it('runs actions and returns their results in data.actions', async () => {
    const doc = data(
      await env.ck.scrape({
        url: `${env.server.url}/js/form.html`,
        formats: ['markdown'],
        maxAge: 0,
        actions: [
          { type: 'click', selector: '#q' },
          { type: 'write', text: 'hand planes' },
          { type: 'press', key: 'Enter' },
          { type: 'wait', milliseconds: 300 },
          { type: 'executeJavascript', script: 'document.title' },
          { type: 'screenshot' },
          { type: 'scrape' },
        ],
      }),
    );
    expect(doc.actions?.javascriptReturns?.[0]).toMatchObject({ type: 'string' });
    expect(doc.actions?.screenshots).toHaveLength(1);
    expect(doc.actions?.screenshots?.[0]).toMatch(/^data:image\/png;base64,|^\//);
    expect(doc.actions?.scrapes).toHaveLength(1);
    expect(doc.actions?.scrapes?.[0]?.html).toMatch(/hand planes|hand\+planes/);
    expect(doc.metadata.url).toContain('/js/search');
  }, 30_000);

  it('answers a failing action with SCRAPE_ACTION_ERROR naming the action and selector', async () => {
    const response = await env.ck.scrape({
      url: `${env.server.url}/js/form.html`,
      maxAge: 0,
      actions: [
        { type: 'wait', milliseconds: 10 },
        { type: 'click', selector: '#does-not-exist' },
      ],
    });
    expect(response).toMatchObject({ success: false, code: 'SCRAPE_ACTION_ERROR' });
    expect((response as ErrorResponse).error).toMatch(/#does-not-exist/);
    expect((response as ErrorResponse).error).toMatch(/1|click/);
  }, 30_000);

  it('emulates a phone and a location', async () => {
    const doc = data(
      await env.ck.scrape({
        url: `${env.server.url}/js/whoami`,
        formats: ['rawHtml'],
        mobile: true,
        location: { country: 'DE', languages: ['de-DE'] },
        maxAge: 0,
      }),
    );
    const server_ = JSON.parse(/<pre id="server">([^<]*)<\/pre>/.exec(doc.rawHtml!.replaceAll('&quot;', '"'))![1]!) as {
      userAgent: string;
      acceptLanguage: string;
    };
    expect(server_.userAgent).toMatch(/Mobile|Android|iPhone/);
    expect(server_.acceptLanguage).toMatch(/^de-DE/);
    expect(doc.rawHtml).toMatch(/Europe\/Berlin/);
  }, 30_000);

  it('waits for waitFor milliseconds on top of the smart wait', async () => {
    const started = Date.now();
    const doc = data(await env.ck.scrape({ url: `${env.server.url}/js/rendered.html`, waitFor: 1500, maxAge: 0 }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    expect(doc.markdown).toMatch(/#/);
  }, 30_000);
});

/** The height in a JPEG's start-of-frame segment. */
function jpegHeight(bytes: Buffer): number {
  let at = 2;
  while (at < bytes.length) {
    const marker = bytes[at + 1]!;
    const length = bytes.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xc3) return bytes.readUInt16BE(at + 5);
    at += 2 + length;
  }
  throw new Error('no start-of-frame segment');
}
