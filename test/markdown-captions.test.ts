/**
 * `markdownOptions.captions` (crawlkit's own, opt-in): figure captions, which the main content drops by default
 * (issue 42), kept as an italic line under the image. Through the function API, `crawlkit serve` with the official JS
 * SDK, and the built CLI's `--markdown-captions`; a bad value is a `BAD_REQUEST` naming the field.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Firecrawl from '@mendable/firecrawl-js';
import { type ErrorResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runCli } from './cli-helpers.ts';
import { ok } from './helpers/crawl-site-run.ts';
import { startServeStack, type ServeStack } from './helpers/serve.ts';

const KEY = 'fc-0123456789abcdef0123456789abcdef';
const CAPTION = 'A freshly sharpened iron.';
const IMAGE = '![A freshly sharpened plane iron]';

let stack: ServeStack;
let fc: Firecrawl;
let cwd: string;

beforeAll(async () => {
  stack = await startServeStack({ server: { apiKeys: [KEY] } });
  fc = new Firecrawl({ apiKey: KEY, apiUrl: stack.server.url });
  cwd = mkdtempSync(join(tmpdir(), 'ck-captions-'));
});

afterAll(async () => {
  await stack?.close();
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

/** The markdown from the image's line on: the image, then its caption in italics on a line of its own. */
const underImage = (markdown: string | undefined) => (markdown ?? '').slice((markdown ?? '').indexOf(IMAGE));

describe('markdownOptions.captions', () => {
  it('keeps a figure caption as an italic line under its image only when asked (function API)', async () => {
    const url = stack.page('/articles/first-post.html');
    const plain = ok(await stack.ck.scrape({ url, formats: ['markdown'], maxAge: 0 }));
    expect(plain.data.markdown).toContain(IMAGE);
    expect(plain.data.markdown).not.toContain('freshly sharpened iron.');
    const off = ok(await stack.ck.scrape({ url, formats: ['markdown'], markdownOptions: { captions: false } }));
    expect(off.data.markdown).toBe(plain.data.markdown);
    const kept = ok(await stack.ck.scrape({ url, formats: ['markdown', 'html'], markdownOptions: { captions: true } }));
    expect(underImage(kept.data.markdown)).toMatch(
      /^!\[A freshly sharpened plane iron\]\([^)]*\)\n\n\*A freshly sharpened iron\.\*\n/,
    );
    expect(kept.data.html).toContain(`<figcaption>${CAPTION}</figcaption>`);
  });

  it('answers a bad value with the v2 error shape naming the field', async () => {
    const url = stack.page('/articles/first-post.html');
    const bad = (await stack.ck.scrape({ url, markdownOptions: { captions: 'yes' } } as never)) as ErrorResponse;
    expect(bad).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(bad.error).toContain('markdownOptions.captions');
  });

  it('is passed through crawlkit serve to firecrawl-js', async () => {
    const url = stack.page('/articles/first-post.html');
    const doc = await fc.scrape(url, {
      formats: ['markdown'],
      maxAge: 0,
      markdownOptions: { captions: true },
    } as never);
    expect(underImage(doc.markdown)).toContain(`\n\n*${CAPTION}*\n`);
    const plain = await fc.scrape(url, { formats: ['markdown'], maxAge: 0 });
    expect(plain.markdown).not.toContain(CAPTION);
  });

  it('is --markdown-captions on the built command line', async () => {
    const url = stack.page('/articles/first-post.html');
    const kept = await runCli(['scrape', url, '--markdown-captions', '--max-age', '0'], { cwd, process: true });
    expect(kept.code, kept.stderr).toBe(0);
    expect(underImage(kept.stdout)).toContain(`\n\n*${CAPTION}*\n`);
    const plain = await runCli(['scrape', url, '--max-age', '0'], { cwd, process: true });
    expect(plain.stdout).not.toContain(CAPTION);
  });
});
