import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import {
  inflatingStream,
  makeInflatingPdf,
  makePdf,
  makeRunOnPagesPdf,
  makeTangledPdf,
  textOps,
} from '../../../../fixtures/make-pdf.ts';
import { makeLockedPdf } from '../../../../fixtures/make-locked-pdf.ts';
import { extractPdf } from './extract-pdf.js';

const site = (path: string) =>
  readFileSync(fileURLToPath(new URL(`../../../../fixtures/site/${path}`, import.meta.url)));

const MiB = 1024 * 1024;

/** A PDF whose page `i` shows `Page i` after `padding` bytes of inflated whitespace. */
function heavyPages(count: number, padding: number, build = makePdf): Buffer {
  const pages = Array.from({ length: count }, (_, i) => [`Page ${i + 1}`]);
  const raw = new Map(
    pages.map((lines, i) => [i, { filter: '/FlateDecode', data: inflatingStream(padding, `\n${textOps(lines)}`) }]),
  );
  return build('Heavy pages', pages, { rawContents: raw });
}

describe('PDF', () => {
  it('extracts text, page count and title', async () => {
    const pdf = await extractPdf(site('files/manual.pdf'));
    expect(pdf.numPages).toBe(3);
    expect(pdf.totalPages).toBe(3);
    expect(pdf.title).toBe('Widget Pro Manual');
    expect(pdf.markdown).toContain('Chapter three: care and warranty.');
    expect(pdf.warnings).toEqual([]);
  });

  it('says a PDF protected by a password is encrypted and what to do', async () => {
    const plain = makePdf('Secret', [['secret text']]).toString('latin1');
    const encrypt =
      '/Encrypt << /Filter /Standard /V 1 /R 2 /O (' + 'x'.repeat(32) + ') /U (' + 'x'.repeat(32) + ') /P -4 >>';
    const locked = Buffer.from(plain.replace('trailer\n<<', `trailer\n<< ${encrypt}`), 'latin1');
    expect(locked.toString('latin1')).toContain('/Encrypt');
    const real = makeLockedPdf('Secret', [['secret text']], { owner: 'partner', user: 'hunter2' });
    for (const pdf of [locked, real]) {
      await expect(extractPdf(pdf)).rejects.toMatchObject({
        code: 'SCRAPE_DOCUMENT_ENCRYPTED',
        message: expect.stringMatching(/protected by a password .*save a copy without the password/),
      });
    }
  });

  it('reads a PDF with an owner password only (anyone may open it)', async () => {
    const pdf = await extractPdf(makeLockedPdf('Agreement', [['Clause 1.'], ['Clause 2.']], { owner: 'partner' }));
    expect(pdf).toMatchObject({ title: 'Agreement', numPages: 2, markdown: 'Clause 1.\n\nClause 2.' });
  });

  it('stops at maxPages', async () => {
    const pdf = await extractPdf(site('files/manual.pdf'), { maxPages: 1 });
    expect(pdf.numPages).toBe(1);
    expect(pdf.totalPages).toBe(3);
    expect(pdf.markdown).not.toContain('Chapter two');
    expect(pdf.warnings).toEqual([]);
  });

  it('fails with a typed error on pages that cannot be read, and leaves no unhandled rejection behind', async () => {
    // pdf.js fetches the page objects ahead; unpatched, each failed fetch was an unhandled rejection (a crash)
    const unhandled: unknown[] = [];
    const count = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', count);
    try {
      await expect(extractPdf(makeRunOnPagesPdf(3))).rejects.toMatchObject({ code: 'SCRAPE_PDF_PARSE_ERROR' });
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('unhandledRejection', count);
    }
    expect(unhandled).toEqual([]);
  });

  it('says a truncated PDF is damaged and what to do', async () => {
    const whole = makePdf('Cut', [['first page'], ['second page']]);
    const cut = whole.subarray(0, Math.floor(whole.length / 3));
    await expect(extractPdf(cut)).rejects.toMatchObject({
      code: 'SCRAPE_PDF_PARSE_ERROR',
      message: expect.stringMatching(/structure is invalid .*truncated .*fetch it again, or open and save it again/),
    });
  });

  it('fails with a typed error on a corrupt PDF', async () => {
    await expect(extractPdf(new TextEncoder().encode('%PDF-1.4 garbage'))).rejects.toMatchObject({
      code: 'SCRAPE_PDF_PARSE_ERROR',
    });
  });
});

describe('PDF limits', () => {
  it('refuses a 1 MB PDF whose content stream inflates to 1 GiB, holding no more than the cap', async () => {
    const pdf = makeInflatingPdf(1024 * MiB, 'after the padding');
    expect(pdf.length).toBeLessThan(1.5 * MiB);
    await expect(extractPdf(pdf)).rejects.toMatchObject({
      code: 'SCRAPE_PDF_TOO_LARGE',
      message: expect.stringContaining('more than 100 MiB'),
    });
  });

  it('parses a stream that inflates within the cap, and refuses it under a smaller cap', async () => {
    const pdf = makeInflatingPdf(2 * MiB, 'after the padding');
    expect(await extractPdf(pdf)).toMatchObject({ markdown: 'after the padding', numPages: 1, warnings: [] });
    await expect(extractPdf(pdf, { maxDecodedBytes: MiB })).rejects.toMatchObject({ code: 'SCRAPE_PDF_TOO_LARGE' });
  });

  it('drops the page that passed the cap, and counts only the pages parsed before it', async () => {
    // each page's content inflates to a little over 1 MiB, held in a 2 MiB buffer
    const out = await extractPdf(heavyPages(5, MiB), { maxDecodedBytes: 5 * MiB });
    expect(out).toMatchObject({ markdown: 'Page 1\n\nPage 2', numPages: 2, totalPages: 5 });
    expect(out.warnings).toEqual([
      expect.stringMatching(/^Only the first 2 of 5 PDF pages were parsed: .* its 5 MiB limit\.$/),
    ]);
  });

  // Both read each object from its start to the end of the file: quadratic, minutes at 100 KB before the cap.
  it('refuses a damaged PDF whose recovery scan would re-read the file from every object', async () => {
    await expect(extractPdf(makeTangledPdf(32 * 1024))).rejects.toMatchObject({
      code: 'SCRAPE_PDF_PARSE_ERROR',
      message: expect.stringMatching(/damaged .* more than 4 passes over its 32 KB/),
    });
  });

  it('refuses a PDF whose pages each run on to the end of the file', async () => {
    await expect(extractPdf(makeRunOnPagesPdf(500))).rejects.toMatchObject({
      code: 'SCRAPE_PDF_PARSE_ERROR',
      message: expect.stringMatching(/damaged .* more than 4 passes/),
    });
  });

  it('stops between pages when the deadline has passed, with the pages parsed so far', async () => {
    const out = await extractPdf(site('files/manual.pdf'), { deadline: Date.now() - 1 });
    expect(out).toMatchObject({ numPages: 1, totalPages: 3 });
    expect(out.warnings).toEqual(['Only the first 1 of 3 PDF pages were parsed before the extraction time ran out.']);
  });
});
