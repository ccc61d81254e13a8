/**
 * A document whose conversion passes the extraction budget (`extractionBudgetMs`): the error names that option, the
 * one that gives conversions more time (the request's `timeout` does not).
 */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';

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
});
