/**
 * The budgets of `extract-pdf.ts` live in the pdf.js worker this package ships (`vendor/pdfjs-dist`): it must be the
 * installed pdfjs-dist plus the patch, and a parse by any other pdf.js must fail loudly instead of running unbounded.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { describe, expect, it } from 'vitest';

import { makeInflatingPdf } from '../../../../fixtures/make-pdf.ts';
import { patchedWorker, pristinePdfjs, VENDORED_WORKER } from '../../../../scripts/vendor-pdfjs.ts';
import { extractPdf } from './extract-pdf.js';

describe('the shipped pdf.js worker', () => {
  it('is the pdfjs-dist that pdf-parse pins with pdf.worker.patch applied (pnpm vendor:pdfjs)', () => {
    const { source, version } = patchedWorker();
    const shipped = readFileSync(VENDORED_WORKER, 'utf8');
    expect(shipped.includes(`pdfjs-dist ${version} `), 'the header names the version').toBe(true);
    expect(shipped === source, `${VENDORED_WORKER} differs: run pnpm vendor:pdfjs`).toBe(true);
    expect(shipped).toContain('crawlkit.pdfDecodeBudget');
  });

  it('refuses to parse when another pdf.js worker took the thread first, instead of parsing unbounded', async () => {
    // pdf.js keeps the first worker side it loads in a thread: load the unpatched one before extractPdf's.
    const pristine = pathToFileURL(join(pristinePdfjs().dir, 'legacy/build/pdf.worker.mjs')).href;
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = await import(pristine);
    const { PDFParse } = await import('pdf-parse');
    const warmup = new PDFParse({ data: makeInflatingPdf(1024, 'warm') });
    await warmup.getInfo();
    await warmup.destroy();
    await expect(extractPdf(makeInflatingPdf(64 * 1024 ** 2, 'a bomb'))).rejects.toMatchObject({
      code: 'SCRAPE_PDF_PARSE_ERROR',
      message: expect.stringMatching(/not the patched one shipped with @crawlkit\/extractor/),
    });
  });
});
