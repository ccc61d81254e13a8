/**
 * `crawlkit scrape --actions … --out DIR`: the actions' screenshots and PDFs become files of their own, listed in the
 * manifest, and the page's `.json` keeps the other action results without repeating those files in base64.
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
