/** A hidden sheet and a hidden slide are still converted, their headings marked `(hidden)`. */
import { readFileSync } from 'node:fs';

import ExcelJS from 'exceljs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
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

/** A committed LibreOffice sample with its `content.xml` edited as LibreOffice writes a hidden sheet or slide. */
function editedOdf(name: 'report.ods' | 'report.odp', edit: (content: string) => string): Uint8Array {
  const files = unzipSync(new Uint8Array(readFileSync(new URL(`../__fixtures__/${name}`, import.meta.url))));
  const content = edit(strFromU8(files['content.xml']!));
  return zipSync({ ...files, mimetype: [files.mimetype!, { level: 0 }], 'content.xml': strToU8(content) });
}

describe('hidden sheets and slides', () => {
  it('marks a hidden and a very hidden sheet, and keeps their tables', async () => {
    const { markdown, metadata } = await convertDocument({ bytes: await workbook(), contentType: '' });
    expect(markdown.match(/^## .*$/gm)).toEqual(['## Matters', '## R&D &lt;rates> (hidden)', '## Calc (hidden)']);
    expect(markdown).toContain('| 950 |');
    expect(metadata.numSheets).toBe(3);
  });

  it('marks a hidden slide, in the order the deck shows them, and keeps its text', async () => {
    const { markdown } = await convertDocument({ bytes: await deck(), contentType: '' });
    expect(markdown.match(/^## .*$/gm)).toEqual(['## Slide 1', '## Slide 2 (hidden)', '## Slide 3']);
    expect(markdown).toContain('Settlement floor');
  });

  it('marks an OpenDocument sheet and slide hidden by their styles', async () => {
    const ods = editedOdf('report.ods', (xml) =>
      xml.replace(/(style:name="ta2"[^>]*><style:table-properties )table:display="true"/, '$1table:display="false"'),
    );
    const sheets = await convertDocument({ bytes: ods, contentType: '' });
    expect(sheets.markdown.match(/^## .*$/gm)).toEqual(['## Sales', '## Notes (hidden)']);
    const odp = editedOdf('report.odp', (xml) =>
      xml
        .replace(
          '<style:drawing-page-properties presentation:display-header',
          '<style:drawing-page-properties presentation:visibility="hidden" presentation:display-header',
        )
        .replace('draw:name="page2" draw:style-name="dp1"', 'draw:name="page2" draw:style-name="dp2"'),
    );
    const slides = await convertDocument({ bytes: odp, contentType: '' });
    expect(slides.markdown.match(/^## .*$/gm)).toEqual(['## Slide 1', '## Slide 2 (hidden)']);
  });

  it("escapes a sheet's name in its heading: no emphasis, link, closing mark or HTML made of it", async () => {
    // names Excel refuses ([ ] *) but other writers keep, and ones it takes; the ODS's two sheets renamed so
    const ods = editedOdf('report.ods', (xml) =>
      xml
        .replace('table:name="Sales"', 'table:name="*Q1* [draft] # 2"')
        .replace('table:name="Notes"', 'table:name="_R&amp;D_ &lt;b&gt;rates&lt;/b&gt; `v2` #"'),
    );
    const { markdown } = await convertDocument({ bytes: ods, contentType: '' });
    expect(markdown.match(/^## .*$/gm)).toEqual([
      '## \\*Q1\\* \\[draft\\] # 2',
      '## \\_R&D\\_ &lt;b>rates&lt;/b> \\`v2\\` \\#',
    ]);
  });
});
