/**
 * A PDF with no text at all (a blank page: no text layer, nothing to read by OCR) comes back with empty markdown and
 * a warning saying so, in each mode, billed as upstream bills it (a credit a page); a PDF with text has no warning.
 */
import { describe, expect, it } from 'vitest';

import { makePdf } from '../fixtures/make-pdf.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { data } from './helpers/scrape.ts';

// OCR of two blank pages ran past the default 10 s extraction budget at load 20 ('Only 1 of 2 PDF pages were read by
// OCR'): the budget is not what these cases are about.
const env = useFixtureEngine({ crawlkit: { store: 'memory', engine: 'http', extractionBudgetMs: 60_000 } });

describe('a PDF without any text', () => {
  it.each([
    ['fast', /The PDF has no text on its 2 parsed pages: none has a text layer .* mode: 'auto' \}\] to read scanned/],
    ['auto', /The PDF has no text on its 2 parsed pages, in a text layer nor by OCR \(2 read\): a blank document/],
    ['ocr', /The PDF has no text on its 2 parsed pages, in a text layer nor by OCR \(2 read\)/],
  ] as const)('%s mode: empty markdown with a warning saying the document has no text', async (mode, warning) => {
    const response = await env.ck.parse(
      { data: makePdf('Blank', [[], []]), filename: 'blank.pdf' },
      { parsers: [{ type: 'pdf', mode }], timeout: 120_000 },
    );
    const doc = data(response);
    expect(doc.markdown!.trim()).toBe('');
    expect(doc.metadata).toMatchObject({ numPages: 2, creditsUsed: 2 });
    expect(doc.warning).toMatch(warning);
  });

  it('a PDF with text has no such warning', async () => {
    const response = await env.ck.parse(
      { data: makePdf('Text', [['Some words on the page']]), filename: 'text.pdf' },
      { parsers: [{ type: 'pdf', mode: 'auto' }] },
    );
    const doc = data(response);
    expect(doc.markdown).toContain('Some words on the page');
    expect(doc.warning).toBeUndefined();
  });
});
