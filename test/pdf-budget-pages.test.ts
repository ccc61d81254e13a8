/**
 * A PDF whose later page alone runs a second past the extraction budget: its worker is stopped mid-page (pdf.js reads
 * a page's content in one synchronous run, where the worker's own deadline check cannot come), and the pages it read
 * before come back with the budget's warning, as a cut between pages gives them.
 */
import { describe, expect, it } from 'vitest';

import { makePdf } from '../fixtures/make-pdf.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { data } from './helpers/scrape.ts';

const BUDGET_MS = 500;
const env = useFixtureEngine({ crawlkit: { store: 'memory', engine: 'http', extractionBudgetMs: BUDGET_MS } });

/**
 * Two pages: the first a line of text, the second 400,000 words each set by its own text matrix (2.5 s to read, warm,
 * on a quiet machine: pdf.js reads a page's content in one go). Not compressed: compressed, a page of 100,000 words
 * was read within a 3 s budget. The first page is read well within the budget; were it not (a loaded machine), the cut
 * between the pages would answer the same.
 */
function slowSecondPage(): Buffer {
  const words = Buffer.from(`BT /F1 10 Tf ${'1 0 0 1 72 720 Tm (word) Tj '.repeat(400_000)}ET`, 'latin1');
  return makePdf('Slow', [['The first page reads at once.'], []], {
    rawContents: new Map([[1, { filter: '', data: words }]]),
  });
}

describe('a PDF page still being read a second past the extraction budget', () => {
  it('returns the pages read before it, with the warning naming extractionBudgetMs', async () => {
    const response = await env.ck.parse({ data: slowSecondPage(), filename: 'slow.pdf' }, { timeout: 120_000 });
    const doc = data(response);
    expect(doc.markdown).toContain('The first page reads at once.');
    expect(doc.markdown).not.toContain('word');
    expect(doc.metadata).toMatchObject({ numPages: 1, totalPages: 2, creditsUsed: 1 });
    expect(doc.warning).toContain('Only the first 1 of 2 PDF pages were parsed before the extraction time ran out.');
    expect(doc.warning).toContain(`The extraction budget (extractionBudgetMs: ${BUDGET_MS} ms) ran out`);
  });
});
