/**
 * `markdownOptions.embeds` (crawlkit's own, opt-in): an `<iframe src>` written as a link line (`[title or host](src)`)
 * and a `<video>` or `<audio>` with a source as `[label](src)`, kept in the main content; nothing changes when off.
 * Through the function API, `crawlkit serve` with the official JS SDK, and the built CLI's `--markdown-embeds`; a bad
 * value is a `BAD_REQUEST` naming the field.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Firecrawl from '@mendable/firecrawl-js';
import { type ErrorResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { runCli } from './cli-helpers.ts';
import { ok } from './helpers/crawl-site-run.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';
import { startServeStack, type ServeStack } from './helpers/serve.ts';

const KEY = 'fc-0123456789abcdef0123456789abcdef';
const TEXT =
  '<p>The harbour master walks the wall at dawn, counting the boats that came in overnight and the ones still out.</p>';
const PAGE =
  `${TEXT}<figure><iframe src="https://www.youtube.com/embed/h4rb0ur" title="Harbour at dawn (film)" ` +
  'width="560" height="315"></iframe></figure>' +
  '<p>The map of the moorings, from the council:</p><iframe src="https://maps.example.org/embed?pier=3"></iframe>' +
  '<video controls poster="/media/pier.jpg"><source src="/media/pier.mp4" type="video/mp4">Your browser…</video>' +
  '<audio controls title="Gulls at low tide"><source src="/media/gulls.ogg" type="audio/ogg"></audio>';

/** A story beside a column of players whose fallback text (shown only where a player cannot play) outweighs it. */
const CLIP = (i: number) =>
  `<div class="clip"><video controls poster="/media/p${i}.jpg"><source src="/media/clip${i}.mp4" type="video/mp4">` +
  `Your browser does not support the video tag. <a href="/media/clip${i}.mp4">Download clip ${i}</a> instead.` +
  `</video><iframe src="https://player.example.org/embed/${i}">Your browser cannot show frames: watch clip ${i} on ` +
  'the player site instead.</iframe></div>';
const COLUMN =
  `<div class="layout"><div class="story">${TEXT.repeat(4)}</div>` +
  `<div class="clips">${Array.from({ length: 12 }, (_, i) => CLIP(i)).join('')}</div></div>`;

let site: FixtureServer;
let stack: ServeStack;
let fc: Firecrawl;
let cwd: string;

beforeAll(async () => {
  site = await startRouteSite({
    '/harbour': (_req, res) => sendPage(res, 'The harbour', PAGE),
    '/clips': (_req, res) => sendPage(res, 'The clips', COLUMN),
  });
  stack = await startServeStack({ server: { apiKeys: [KEY] } });
  fc = new Firecrawl({ apiKey: KEY, apiUrl: stack.server.url });
  cwd = mkdtempSync(join(tmpdir(), 'ck-embeds-'));
});

afterAll(async () => {
  await stack?.close();
  await site?.close();
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

const lines = () => [
  '[Harbour at dawn (film)](https://www.youtube.com/embed/h4rb0ur)',
  '[maps.example.org](https://maps.example.org/embed?pier=3)',
  `[pier.mp4](${site.url}/media/pier.mp4)`,
  `[Gulls at low tide](${site.url}/media/gulls.ogg)`,
];

describe('markdownOptions.embeds', () => {
  it('writes frames, videos and audio as link lines only when asked (function API)', async () => {
    const url = `${site.url}/harbour`;
    const plain = ok(await stack.ck.scrape({ url, formats: ['markdown', 'html', 'links'], maxAge: 0 }));
    for (const line of lines()) expect(plain.data.markdown).not.toContain(line);
    expect(plain.data.markdown).not.toContain('](https://www.youtube.com');
    const off = ok(await stack.ck.scrape({ url, formats: ['markdown'], markdownOptions: { embeds: false } }));
    expect(off.data.markdown).toBe(plain.data.markdown);

    const on = ok(
      await stack.ck.scrape({ url, formats: ['markdown', 'html', 'links'], markdownOptions: { embeds: true } }),
    );
    // each a line of its own
    const own = new Set(on.data.markdown!.split('\n\n'));
    for (const line of lines()) expect(own.has(line), line).toBe(true);
    // the links format stays v2's (anchors only)
    expect(on.data.links).toEqual(plain.data.links);
  });

  it('leaves the main content where it is: a fallback text of players no format shows does not count', async () => {
    const url = `${site.url}/clips`;
    const off = ok(await stack.ck.scrape({ url, formats: ['markdown', 'images'], maxAge: 0 }));
    const on = ok(
      await stack.ck.scrape({ url, formats: ['markdown', 'images'], maxAge: 0, markdownOptions: { embeds: true } }),
    );
    expect(off.data.markdown).toContain('The harbour master walks the wall');
    expect(on.data.markdown).toBe(off.data.markdown);
    expect(on.data.images).toEqual(off.data.images);
  });

  it('answers a bad value with the v2 error shape naming the field', async () => {
    const url = `${site.url}/harbour`;
    const bad = (await stack.ck.scrape({ url, markdownOptions: { embeds: 'yes' } } as never)) as ErrorResponse;
    expect(bad).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(bad.error).toContain('markdownOptions.embeds');
  });

  it('is passed through crawlkit serve to firecrawl-js', async () => {
    const url = `${site.url}/harbour`;
    const doc = await fc.scrape(url, { formats: ['markdown'], maxAge: 0, markdownOptions: { embeds: true } } as never);
    expect(doc.markdown).toContain(lines()[0]);
    const plain = await fc.scrape(url, { formats: ['markdown'], maxAge: 0 });
    expect(plain.markdown).not.toContain(lines()[0]);
  });

  it('is --markdown-embeds on the built command line', async () => {
    const url = `${site.url}/harbour`;
    const kept = await runCli(['scrape', url, '--markdown-embeds', '--max-age', '0'], { cwd, process: true });
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout).toContain(lines()[3]);
    const plain = await runCli(['scrape', url, '--max-age', '0'], { cwd, process: true });
    expect(plain.stdout).not.toContain(lines()[3]);
  });
});
