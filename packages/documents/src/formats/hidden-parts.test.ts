/** A hidden sheet and a hidden slide are still converted, their headings marked `(hidden)`. */
import ExcelJS from 'exceljs';
import pptxgen from 'pptxgenjs';
import { describe, expect, it } from 'vitest';

import { convertDocument } from '../convert.js';

async function workbook(): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Matters').addRows([['Matter'], ['ACME v Widget']]);
  const secret = book.addWorksheet('R&D <rates>');
  secret.addRows([['Rate'], [950]]);
  secret.state = 'hidden';
  const calc = book.addWorksheet('Calc');
  calc.addRows([['k'], ['x']]);
  calc.state = 'veryHidden';
  return new Uint8Array(await book.xlsx.writeBuffer());
}

async function deck(): Promise<Uint8Array> {
  const PptxGenJS = pptxgen as unknown as typeof pptxgen.default;
  const slides = new PptxGenJS();
  slides.addSlide().addText('Litigation overview', { x: 1, y: 1, w: 8, h: 1 });
  const secret = slides.addSlide();
  secret.addText('Settlement floor', { x: 1, y: 1, w: 8, h: 1 });
  secret.hidden = true;
  slides.addSlide().addText('Next steps', { x: 1, y: 1, w: 8, h: 1 });
  return new Uint8Array((await slides.write({ outputType: 'nodebuffer' })) as Buffer);
}

describe('hidden sheets and slides', () => {
  it('marks a hidden and a very hidden sheet, and keeps their tables', async () => {
    const { markdown, metadata } = await convertDocument({ bytes: await workbook(), contentType: '' });
    expect(markdown.match(/^## .*$/gm)).toEqual(['## Matters', '## R&D <rates> (hidden)', '## Calc (hidden)']);
    expect(markdown).toContain('| 950 |');
    expect(metadata.numSheets).toBe(3);
  });

  it('marks a hidden slide, in the order the deck shows them, and keeps its text', async () => {
    const { markdown } = await convertDocument({ bytes: await deck(), contentType: '' });
    expect(markdown.match(/^## .*$/gm)).toEqual(['## Slide 1', '## Slide 2 (hidden)', '## Slide 3']);
    expect(markdown).toContain('Settlement floor');
  });
});
