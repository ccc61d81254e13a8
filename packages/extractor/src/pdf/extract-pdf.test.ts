import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { extractPdf } from './extract-pdf.js';

const site = (path: string) =>
  readFileSync(fileURLToPath(new URL(`../../../../fixtures/site/${path}`, import.meta.url)));

describe('PDF', () => {
  it('extracts text, page count and title', async () => {
    const pdf = await extractPdf(site('files/manual.pdf'));
    expect(pdf.numPages).toBe(3);
    expect(pdf.totalPages).toBe(3);
    expect(pdf.title).toBe('Widget Pro Manual');
    expect(pdf.markdown).toContain('Chapter three: care and warranty.');
  });

  it('stops at maxPages', async () => {
    const pdf = await extractPdf(site('files/manual.pdf'), { maxPages: 1 });
    expect(pdf.numPages).toBe(1);
    expect(pdf.totalPages).toBe(3);
    expect(pdf.markdown).not.toContain('Chapter two');
  });

  it('fails with a typed error on a corrupt PDF', async () => {
    await expect(extractPdf(new TextEncoder().encode('%PDF-1.4 garbage'))).rejects.toMatchObject({
      code: 'SCRAPE_PDF_PARSE_ERROR',
    });
  });
});
