// Checks that a change to the extractor keeps its outputs byte-identical: `extractPage` of the 12 largest WCXB dev
// pages and of every 5th page (300 pages), main content and whole page, every format (markdown, html, links,
// images, metadata, discovery links, canonical, warnings). `record` writes one SHA-256 a page and mode to a file;
// `check` recomputes them with the current build and lists the pages that differ (exit code 1 if any).
// Run: pnpm build --filter @crawlkit/extractor, then
//      pnpm exec node bench/lib/extract-identity.ts record /tmp/before.json   (on the build before the change)
//      pnpm exec node bench/lib/extract-identity.ts check /tmp/before.json    (after it)
// CK_IDENTITY_ALL=1 takes every dev page (1,497, both modes: ~2,994 outputs) instead.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { extractPage } from '@crawlkit/extractor';

import { loadWcxbPages } from './wcxb.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const datasets = process.env.WCXB_DIR ?? join(here, '../../../shared/datasets/wcxb-dev');
const [mode, file] = process.argv.slice(2);
if ((mode !== 'record' && mode !== 'check') || !file) {
  console.error('usage: extract-identity.ts record|check <file.json>');
  process.exit(2);
}

const all = loadWcxbPages(datasets);
const largest = [...all].sort((a, b) => b.html.length - a.html.length).slice(0, 12);
const sample = all.filter((_, i) => i % 5 === 0);
const pages = process.env['CK_IDENTITY_ALL']
  ? all
  : [...new Map([...largest, ...sample].map((p) => [p.id, p])).values()];

const digests: Record<string, string> = {};
for (const page of pages) {
  for (const onlyMainContent of [true, false]) {
    const out = extractPage(page.html, {
      url: page.url,
      onlyMainContent,
      formats: { markdown: true, html: true, links: true, images: true, metadata: true, discoveryLinks: true },
    });
    digests[`${page.id} ${onlyMainContent ? 'main' : 'whole'}`] = createHash('sha256')
      .update(JSON.stringify(out))
      .digest('hex');
  }
}

if (mode === 'record') {
  writeFileSync(file, JSON.stringify(digests, null, 1));
  console.log(`recorded ${Object.keys(digests).length} outputs of ${pages.length} pages to ${file}`);
} else {
  const before = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  const differ = Object.keys(before).filter((k) => before[k] !== digests[k]);
  console.log(
    `${Object.keys(before).length - differ.length} of ${Object.keys(before).length} outputs identical` +
      (differ.length ? `; differ: ${differ.join(', ')}` : ''),
  );
  if (differ.length) process.exit(1);
}
