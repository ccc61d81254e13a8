/**
 * `crawlkit scrape --actions … --out DIR`: the actions' screenshots and PDFs become files of their own, listed in the
 * manifest, and the page's `.json` keeps the other action results without repeating those files in base64;
 * `--full-page-screenshot` shoots the whole page.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Document } from 'crawlkit';
import { expect, it } from 'vitest';

import { useCliSite } from './helpers/cli-site.ts';

const site = useCliSite();

it('writes the screenshots and PDFs of actions as files', async () => {
  const out = join(site.dir, 'actions-out');
  const actions = [
    { type: 'screenshot' },
    { type: 'pdf', format: 'A4' },
    { type: 'executeJavascript', script: 'document.title' },
    { type: 'screenshot', quality: 50 },
  ];
  const result = await site.cli([
    'scrape',
    `${site.server.url}/articles/first-post.html`,
    '--actions',
    JSON.stringify(actions),
    '--out',
    out,
  ]);
  expect(result.code, result.stderr).toBe(0);
  const slug = 'articles-first-post';
  expect(readdirSync(out).sort()).toEqual(
    [
      `${slug}.action-1.pdf`, // before: no PDF file, only base64 in the .json
      `${slug}.action-1.png`,
      `${slug}.action-2.jpg`,
      `${slug}.json`,
      `${slug}.md`,
      'manifest.json',
    ].sort(),
  );
  expect(
    readFileSync(join(out, `${slug}.action-1.pdf`))
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
    pages: { files: Record<string, string> }[];
  };
  expect(manifest.pages[0]!.files).toMatchObject({
    'actions.screenshots.0': `${slug}.action-1.png`,
    'actions.screenshots.1': `${slug}.action-2.jpg`,
    'actions.pdfs.0': `${slug}.action-1.pdf`,
  });
  const json = readFileSync(join(out, `${slug}.json`), 'utf8');
  // Before: both screenshots and the PDF again, in base64.
  expect(json).not.toContain(';base64,');
  expect((JSON.parse(json) as Document).actions).toEqual({
    javascriptReturns: [{ type: 'string', value: expect.any(String) as string }],
  });
}, 60_000);

it('takes a full-page screenshot with --full-page-screenshot, as firecrawl-cli does', async () => {
  const out = join(site.dir, 'full-page-out');
  const result = await site.cli(['scrape', `${site.server.url}/js/long.html`, '--full-page-screenshot', '--out', out]);
  // Before: "unknown option '--full-page-screenshot'" (exit 2); a full page needed --body.
  expect(result.code, result.stderr).toBe(0);
  const png = readdirSync(out).find((name) => name.endsWith('.png'));
  expect(png).toBeDefined();
  // The page is three sections of 1,000 px: the image's height (PNG IHDR) holds all of them, not one viewport.
  expect(readFileSync(join(out, png!)).readUInt32BE(20)).toBeGreaterThanOrEqual(3_000);
}, 60_000);

it("writes a failed flow's evidence under --out: the screenshots before it and the page when it failed", async () => {
  const out = join(site.dir, 'failed-out');
  const actions = [{ type: 'screenshot' }, { type: 'click', selector: '#no-such-button' }];
  const url = `${site.server.url}/articles/first-post.html`;
  const result = await site.cli(['scrape', url, '--actions', JSON.stringify(actions), '--out', out]);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('action 1 (click "#no-such-button") failed: no element matches the selector');
  expect(result.stderr).toContain(`the failed action's evidence is written to ${out}`);
  const slug = 'articles-first-post';
  // Before: nothing was written; the screenshot of action 0 was lost with the error.
  expect(readdirSync(out).sort()).toEqual(
    [`${slug}.action-1.png`, `${slug}.error.json`, `${slug}.failed.png`, 'manifest.json'].sort(),
  );
  expect(
    readFileSync(join(out, `${slug}.failed.png`))
      .subarray(1, 4)
      .toString(),
  ).toBe('PNG');
  const error = JSON.parse(readFileSync(join(out, `${slug}.error.json`), 'utf8')) as Record<string, unknown>;
  expect(error).toMatchObject({
    success: false,
    code: 'SCRAPE_ACTION_ERROR',
    details: { action: { index: 1, type: 'click', selector: '#no-such-button' }, url },
  });
  expect(JSON.stringify(error)).not.toContain(';base64,');
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  expect(manifest).toMatchObject({
    status: 'failed',
    pages: [],
    errors: [
      {
        url,
        code: 'SCRAPE_ACTION_ERROR',
        files: {
          'actions.screenshots.0': `${slug}.action-1.png`,
          'details.screenshot': `${slug}.failed.png`,
          json: `${slug}.error.json`,
        },
      },
    ],
  });
}, 60_000);
