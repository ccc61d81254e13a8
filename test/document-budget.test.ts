/**
 * A document whose conversion passes the extraction budget (`extractionBudgetMs`): the error names that option, the
 * one that gives conversions more time (the request's `timeout` does not); a PDF cut between pages says it too.
 */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { writePdf } from '../packages/extractor/src/pdf/__fixtures__/write-pdf.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { data } from './helpers/scrape.ts';

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
    // Enough pages that 1 ms cannot read them all: a warm worker reads the 3 pages of manual.pdf in about 1 ms, which
    // failed this test under load once the pool's threads were kept between engines
    const paragraph = { text: 'A paragraph of a long manual, one of several on each of its many pages. '.repeat(6) };
    const manual = await writePdf(Array.from({ length: 200 }, () => ({ blocks: [paragraph, paragraph, paragraph] })));
    const doc = data(await env.ck.parse({ data: manual, filename: 'manual.pdf' }, { timeout: 120_000 }));
    const parsed = doc.metadata.numPages as number;
    expect(parsed).toBeGreaterThanOrEqual(1);
    expect(parsed).toBeLessThan(200);
    expect(doc.metadata).toMatchObject({ totalPages: 200, creditsUsed: parsed });
    expect(doc.warning).toContain(
      `Only the first ${parsed} of 200 PDF pages were parsed before the extraction time ran out.`,
    );
    expect(doc.warning).toMatch(
      /The extraction budget \(extractionBudgetMs: 1 ms\) ran out before the whole document was read: raise `extractionBudgetMs` to read the rest\./,
    );
  });

  it('stops a damaged PDF whose reading runs past the budget, answering SCRAPE_DOCUMENT_TIMEOUT within it', async () => {
    // 20 MB of objects with no cross-reference table: pdf.js rebuilds one in a single pass that no check interrupts
    // (9 s here before the worker was stopped at the budget; the answer was SCRAPE_PDF_PARSE_ERROR, past it)
    const object = (i: number) => `${i} 0 obj\n<< /Type /Page /Parent 9999999 0 R /Contents ${i + 1} 0 R >>\nendobj\n`;
    const objects = Array.from({ length: 300_000 }, (_, i) => object(i + 1)).join('');
    const damaged = new TextEncoder().encode(`%PDF-1.4\n${objects}startxref\n999999999\n%%EOF\n`);
    const started = performance.now();
    const response = await env.ck.parse({ data: damaged, filename: 'damaged.pdf' }, { timeout: 120_000 });
    // the budget (1 ms), the second the worker has to stop by itself, and the worker's start: well below 9 s
    expect(performance.now() - started).toBeLessThan(6_000);
    expect(response).toMatchObject({ success: false, code: 'SCRAPE_DOCUMENT_TIMEOUT' });
    expect((response as { error: string }).error).toBe(
      'Reading the PDF took longer than the extraction budget (extractionBudgetMs: 1 ms), and it was stopped; raise ' +
        '`extractionBudgetMs` (an engine option) for documents this large.',
    );
  });
});
