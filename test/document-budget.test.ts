/**
 * A document whose conversion passes the extraction budget (`extractionBudgetMs`): the error names that option, the
 * one that gives conversions more time (the request's `timeout` does not); a PDF cut between pages says it too.
 */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { data } from './helpers/scrape.ts';

const manual = new Uint8Array(readFileSync(new URL('../fixtures/site/files/manual.pdf', import.meta.url)));
const ods = new Uint8Array(readFileSync(new URL('../packages/documents/src/__fixtures__/report.ods', import.meta.url)));

// 1 ms: the conversion of any spreadsheet passes it (officeparser reads the zip asynchronously, then checks its signal)
const env = useFixtureEngine({ crawlkit: { store: 'memory', engine: 'http', extractionBudgetMs: 1 } });

describe('a document past the extraction budget', () => {
  it('fails with SCRAPE_DOCUMENT_TIMEOUT naming extractionBudgetMs, not the timeout the request already raised', async () => {
    const response = await env.ck.parse({ data: ods, filename: 'report.ods' }, { timeout: 120_000 });
    expect(response).toMatchObject({ success: false, code: 'SCRAPE_DOCUMENT_TIMEOUT' });
    const { error } = response as { error: string };
    expect(error).toMatch(
      /^Converting the ODS document took longer than the extraction budget \(extractionBudgetMs: 1 ms\)/,
    );
    expect(error).toMatch(/raise `extractionBudgetMs`/);
    expect(error).not.toMatch(/raise `timeout`/);
  });

  it('says which option reads the rest of a PDF it cut between pages', async () => {
    const doc = data(await env.ck.parse({ data: manual, filename: 'manual.pdf' }, { timeout: 120_000 }));
    expect(doc.metadata).toMatchObject({ numPages: 1, totalPages: 3, creditsUsed: 1 });
    expect(doc.warning).toMatch(/Only the first 1 of 3 PDF pages were parsed before the extraction time ran out\./);
    expect(doc.warning).toMatch(
      /The extraction budget \(extractionBudgetMs: 1 ms\) ran out before the whole document was read: raise `extractionBudgetMs` to read the rest\./,
    );
  });
});
