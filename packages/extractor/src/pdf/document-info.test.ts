/** A PDF's document information as metadata, read back by pdf.js from a PDF written by pdf-lib. */
import { describe, expect, it } from 'vitest';
import { writePdf } from './__fixtures__/write-pdf.js';
import { pdfDate } from './document-info.js';
import { extractPdf } from './extract-pdf.js';

describe('PDF metadata', () => {
  it("maps the document information to crawlkit's metadata names, dates as ISO 8601, pdf.js's own keys left out", async () => {
    const pdf = await writePdf([{ blocks: [{ text: 'The survey covered every branch.' }] }], {
      info: {
        title: 'Annual Survey',
        author: 'Survey Team',
        subject: 'Branches in the first half',
        keywords: ['survey', 'branches'],
        creator: 'Writer 7',
        producer: 'pdf-lib',
        created: new Date('2024-03-01T10:00:00Z'),
        modified: new Date('2024-03-02T11:30:00Z'),
        language: 'en-GB',
      },
    });
    const out = await extractPdf(pdf);
    expect(out.title).toBe('Annual Survey');
    expect(out.metadata).toEqual({
      title: 'Annual Survey',
      author: 'Survey Team',
      description: 'Branches in the first half',
      keywords: 'survey branches',
      creator: 'Writer 7',
      producer: 'pdf-lib',
      created: '2024-03-01T10:00:00.000Z',
      modified: '2024-03-02T11:30:00.000Z',
      language: 'en-GB',
    });
  });

  it('reads PDF dates with their offset, parts left out, and refuses what is not one', () => {
    expect(pdfDate("D:20240301120000+02'00'")).toBe('2024-03-01T10:00:00.000Z');
    expect(pdfDate("D:20240301120000-05'30")).toBe('2024-03-01T17:30:00.000Z');
    expect(pdfDate('D:2024')).toBe('2024-01-01T00:00:00.000Z');
    expect(pdfDate('20240301')).toBe('2024-03-01T00:00:00.000Z');
    expect(pdfDate('yesterday')).toBeUndefined();
    expect(pdfDate('D:20241301')).toBeUndefined();
  });
});
