/**
 * A PDF whose later page alone runs a second past the extraction budget: its worker is stopped mid-page (pdf.js reads
 * a page's content in one synchronous run, where the worker's own deadline check cannot come), and the pages it read
 * before come back with the budget's warning, as a cut between pages gives them.
 */
import { describe, expect, it } from 'vitest';

import { makePdf } from '../fixtures/make-pdf.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { data } from './helpers/scrape.ts';

const BUDGET_MS = 3_000;
const env = useFixtureEngine({ crawlkit: { store: 'memory', engine: 'http', extractionBudgetMs: BUDGET_MS } });

/**
 * Two pages: the first a line of text, the second 100,000 words set on one line, each a hundredth of a point past the
 * last (7 s to read, warm, without load: the layout of a page is read in one go).
 */
function slowSecondPage(): Buffer {
  const words = Buffer.from(`BT /F1 10 Tf 72 720 Td ${'(word) Tj 0.01 0 Td '.repeat(100_000)}ET`, 'latin1');
  // not compressed (an empty filter list): compressed, the same page was read within the budget here
  const rawContents = new Map([[1, { filter: '[]', data: words }]]);
  return makePdf('Slow', [['The first page reads at once.'], []], { rawContents });
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
