/**
 * A filled PDF form (AcroForm, written by pdf-lib here): its values are annotations, not page content, and come into
 * the markdown beside their labels, in the labels' type size; empty, hidden and password fields give nothing.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';

import { extractPdf } from './extract-pdf.js';

async function filledForm(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  const form = pdf.getForm();
  page.drawText('Application form', { x: 72, y: 740, size: 20, font });
  page.drawText('Applicant name:', { x: 72, y: 700, size: 12, font });
  const name = form.createTextField('applicant.name');
  name.setText('Jane Filled Value');
  name.addToPage(page, { x: 180, y: 690, width: 200, height: 24 });
  const agree = form.createCheckBox('agree');
  agree.addToPage(page, { x: 72, y: 640, width: 16, height: 16 });
  agree.check();
  page.drawText('I agree to the terms', { x: 96, y: 642, size: 12, font });
  const newsletter = form.createCheckBox('newsletter');
  newsletter.addToPage(page, { x: 72, y: 600, width: 16, height: 16 });
  page.drawText('Send me the newsletter', { x: 96, y: 602, size: 12, font });
  page.drawText('Country:', { x: 72, y: 560, size: 12, font });
  const country = form.createDropdown('country');
  country.addOptions(['France', 'Japan']);
  country.select('Japan');
  country.addToPage(page, { x: 180, y: 550, width: 120, height: 20 });
  // a value whose field is alone on its row, in a box fitted to a large type
  const notes = form.createTextField('notes');
  notes.setText('Deliver before noon');
  notes.addToPage(page, { x: 72, y: 480, width: 300, height: 40 });
  page.drawText('Signature and date below.', { x: 72, y: 420, size: 12, font });
  const empty = form.createTextField('empty');
  empty.addToPage(page, { x: 72, y: 370, width: 200, height: 24 });
  const secret = form.createTextField('secret');
  secret.setText('hunter2');
  secret.enablePassword();
  secret.addToPage(page, { x: 72, y: 330, width: 200, height: 24 });
  return pdf.save();
}

describe('a filled PDF form', () => {
  it("reads its fields' values beside their labels, in the labels' type size", async () => {
    const { markdown } = await extractPdf(await filledForm());
    expect(markdown).toBe(
      [
        '# Application form',
        'Applicant name: Jane Filled Value',
        '[x] I agree to the terms',
        '[ ] Send me the newsletter',
        'Country: Japan',
        'Deliver before noon',
        'Signature and date below.',
      ].join('\n\n'),
    );
    expect(markdown).not.toContain('hunter2');
  });

  it('a PDF without a form reads as before', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    pdf.addPage([612, 792]).drawText('Plain page', { x: 72, y: 700, size: 12, font });
    expect((await extractPdf(await pdf.save())).markdown).toBe('Plain page');
  });
});
