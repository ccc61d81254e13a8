/**
 * What a PDF's worker had told when the pool stopped it past the extraction budget, read on the main thread's end of
 * its port, and the document composed from it. The parse is the real one (pdf.js), posting on a real port as a
 * worker's does; only the stop is left out (a worker stopped between its last post and its reply).
 */
import { describe, expect, it } from 'vitest';

import { extractPdf } from '@crawlkit/extractor';
import { warningText } from '@crawlkit/extractor/page-warnings';

import { makePdf } from '../../../../fixtures/make-pdf.ts';
import { runCall } from './calls.js';
import type { Extraction } from './extraction.js';
import { PdfProgress } from './pdf-progress.js';

const PAGES = [['Chapter one opens the manual.'], ['Chapter two closes it.']];

/** The parse of `pdf` as its worker runs it, telling `progress`'s port what it read. */
async function parseTelling(progress: PdfProgress, pdf: Buffer, maxPages?: number): Promise<void> {
  const port = progress.next();
  await extractPdf(new Uint8Array(pdf), {
    onRead: (read) => port.postMessage(read),
    ...(maxPages ? { maxPages } : {}),
  });
  // a worker's posts arrive once its thread yields; the stopped worker's had
  await new Promise((resolve) => setImmediate(resolve));
}

describe('a PDF worker stopped after its last page, before its reply', () => {
  it('still answers every page read, without the warning of a cut', async () => {
    const progress = new PdfProgress();
    try {
      await parseTelling(progress, makePdf('Manual', PAGES));
      const read = progress.read();
      // before: nothing, once the worker had told it was past its pages, and the page failed SCRAPE_DOCUMENT_TIMEOUT
      expect(read?.pages).toHaveLength(2);
      const doc = (await runCall({ kind: 'pdfCut', ...read!, mode: 'fast', budgetMs: 500 })) as Extraction;
      expect(doc.markdown).toContain('Chapter one opens the manual.');
      expect(doc.markdown).toContain('Chapter two closes it.');
      expect(doc.metadata).toMatchObject({ numPages: 2 });
      expect(doc.warnings).toEqual([]);
    } finally {
      progress.close();
    }
  });

  it("keeps the text pass's own warnings, and says which pages auto mode did not read by OCR", async () => {
    const progress = new PdfProgress();
    try {
      // the second page has no text layer: auto mode would have read it by OCR
      await parseTelling(progress, makePdf('Scan', [PAGES[0]!, []]));
      const doc = (await runCall({ kind: 'pdfCut', ...progress.read()!, mode: 'auto', budgetMs: 500 })) as Extraction;
      expect(doc.markdown).toContain('Chapter one opens the manual.');
      expect(doc.warnings[0]).toBe('Only 0 of 1 PDF pages were read by OCR before the time ran out.');
      expect(doc.warnings.map(warningText).join(' ')).toContain('extractionBudgetMs: 500 ms');
    } finally {
      progress.close();
    }
  });
});
