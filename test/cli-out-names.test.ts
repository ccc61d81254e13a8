/**
 * `crawlkit batch --out DIR` on pages whose addresses are in other scripts: each file is named after the path as it
 * reads, not after the bytes of its percent-encoding, and stays within what a file system takes; a page whose path
 * reads `manifest` does not take the run's `manifest.json`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { expect, it } from 'vitest';

import { useCliSite } from './helpers/cli-site.ts';

const site = useCliSite();

it('names the files of pages with non-Latin paths in their own script', async () => {
  const long = '東京'.repeat(100);
  const paths = ['/wiki/日本語のページ', '/wiki/Москва_(город)', '/हिन्दी/पृष्ठ', '/p/caf%C3%A9?q=ü', `/w/${long}`];
  const out = join(site.dir, 'names-out');
  const urls = paths.map((p) => `${site.server.url}${p}`).join('\n');
  const result = await site.cli(['batch', '-', '--out', out, '--quiet'], urls);
  expect(result.code, result.stderr).toBe(0);
  const names = readdirSync(out).filter((name) => name.endsWith('.md'));
  expect(names).toEqual(
    expect.arrayContaining([
      'wiki-日本語のページ.md',
      'wiki-москва-город.md',
      'हिन्दी-पृष्ठ.md',
      'p-café-q-ü.md',
      `w-${'東京'.repeat(19)}東.md`,
    ]),
  );
  for (const name of readdirSync(out)) expect(Buffer.byteLength(name)).toBeLessThan(255);
});

it("gives a page at /manifest its own files, not the run's manifest.json", async () => {
  const out = join(site.dir, 'manifest-out');
  const urls = ['/manifest', '/Manifest.html'].map((p) => `${site.server.url}${p}`).join('\n');
  const result = await site.cli(['batch', '-', '--out', out, '--quiet'], urls);
  expect(result.code, result.stderr).toBe(0);
  // Before: the page's JSON was written as manifest.json, then replaced by the manifest, which listed itself as the
  // page's `json` file; the second page was manifest-2.
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
    tool: string;
    pages: { url: string; files: Record<string, string> }[];
  };
  expect(manifest.tool).toBe('crawlkit');
  const jsonFiles = manifest.pages.map((page) => page.files.json).sort();
  expect(jsonFiles).toEqual(['manifest-2.json', 'manifest-3.json']);
  for (const page of manifest.pages) {
    const own = JSON.parse(readFileSync(join(out, page.files.json!), 'utf8')) as { metadata: { sourceURL: string } };
    expect(own.metadata.sourceURL).toBe(page.url);
  }
});
