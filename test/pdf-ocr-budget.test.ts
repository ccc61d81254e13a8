/**
 * A PDF whose OCR runs past the extraction budget: its first page to read by OCR takes seconds to render, in one run
 * where the worker's own deadline check cannot come, so the worker is stopped a second past the budget. What was read
 * before (the text layer of every page) comes back with the budget's warning, as a PDF cut in its text pass does
 * (pdf-budget-pages.test.ts), not SCRAPE_DOCUMENT_TIMEOUT for the whole document.
 */
import { describe, expect, it } from 'vitest';

import { makeSlowScannedPdf } from '../packages/documents/src/__fixtures__/writers.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { data } from './helpers/scrape.ts';

const BUDGET_MS = 1_500;
const env = useFixtureEngine({ crawlkit: { store: 'memory', engine: 'http', extractionBudgetMs: BUDGET_MS } });

describe('a PDF whose OCR is still rendering a page a second past the extraction budget', () => {
  it.each(['auto', 'ocr'] as const)(
    '%s mode: returns the pages read before, with the warning naming extractionBudgetMs',
    async (mode) => {
      const response = await env.ck.parse(
        { data: await makeSlowScannedPdf(), filename: 'slow-scan.pdf' },
        { parsers: [{ type: 'pdf', mode }], timeout: 120_000 },
      );
      const doc = data(response);
      // the text layer of every page (the text pass ends well within the budget), none read by OCR: the first to
      // read is the slow one
      expect(doc.markdown!.trim()).toBe('Text layer page three');
      expect(doc.metadata).toMatchObject({ numPages: 3 });
      expect(doc.warning).toMatch(/Only 0 of \d PDF pages were read by OCR before the time ran out\./);
      expect(doc.warning).toContain(`The extraction budget (extractionBudgetMs: ${BUDGET_MS} ms) ran out`);
    },
  );
});
