import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { afterAll, describe, expect, it } from 'vitest';

import { contentHash, foldHash } from '../changes/content-hash.js';
import { scrapeRequestSchema } from '../v2/scrape-options.js';
import { extractionSettings } from '../scrape/extraction-settings.js';
import type { ExtractionSettings } from './extraction.js';
import { ExtractionPool } from './pool.js';

const repo = join(import.meta.dirname, '..', '..', '..', '..');
/** Real pages: the repo's fixture sites, and every 50th page of the WCXB dev split where the datasets are beside it. */
function realPages(): { url: string; html: string }[] {
  const fixtures = ['fixtures/site/articles', 'fixtures/crawl-site/site', 'fixtures/docs-site/guide'].flatMap((dir) =>
    readdirSync(join(repo, dir))
      .filter((f) => f.endsWith('.html'))
      .map((f) => ({ url: `http://127.0.0.1/${dir}/${f}`, html: readFileSync(join(repo, dir, f), 'utf8') })),
  );
  // WCXB v1.0 by Murrough Foley, CC-BY-4.0: read from the shared datasets, never copied here.
  const wcxb = join(repo, '..', 'shared', 'datasets', 'wcxb-dev', 'html');
  const dev = existsSync(wcxb)
    ? readdirSync(wcxb)
        .filter((f, i) => f.endsWith('.html.gz') && i % 50 === 0)
        .map((f) => ({ url: `http://127.0.0.1/${f}`, html: gunzipSync(readFileSync(join(wcxb, f))).toString('utf8') }))
    : [];
  return [...fixtures, ...dev];
}

const request = scrapeRequestSchema.parse({ url: 'http://127.0.0.1/page', formats: ['markdown', 'links'] });
const pool = ExtractionPool.acquire({ size: 1, maxMemoryMb: 512 });
afterAll(() => pool.release());

const extract = (page: { url: string; html: string }, settings: ExtractionSettings) =>
  pool.extract({ page: { url: page.url, contentType: 'text/html', kind: 'html', text: page.html }, settings });

describe("a crawl page's content hashes, made in the extraction worker", () => {
  it('are the hashes the main thread made of the same markdown, the fold only for a page naming a canonical', async () => {
    const pages = realPages();
    const crawl = extractionSettings(request, true, false, true);
    let canonicals = 0;
    for (const page of pages) {
      const extraction = await extract(page, crawl);
      const markdown = extraction.markdown!;
      expect(extraction.contentHash, page.url).toBe(contentHash(markdown));
      if (extraction.canonical) canonicals++;
      expect(extraction.foldHash, page.url).toBe(extraction.canonical ? foldHash(markdown) : undefined);
    }
    expect(canonicals).toBeGreaterThan(0);
    // CPU-bound: 90 pages one after the other took 5 s at load 2 and passed the 30 s default at load 10.
  }, 180_000);

  it('are not made for a scrape that reads neither (a batch, a scrape): its settings and extraction as before', async () => {
    const settings = extractionSettings(request, false);
    expect(settings).not.toHaveProperty('hashContent');
    const extraction = await extract(realPages()[0]!, settings);
    expect(extraction).not.toHaveProperty('contentHash');
    expect(extraction).not.toHaveProperty('foldHash');
  });
});
