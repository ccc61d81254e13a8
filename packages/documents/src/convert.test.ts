/** Golden markdown of each format, from documents made by real writers (see `__fixtures__/README.md`). */
import { readFileSync } from 'node:fs';

import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';

import { rtfMetadata } from './formats/rtf-info.js';
import { convertDocument } from './convert.js';
import { documentFormat } from './detect.js';
import {
  AUTHOR,
  compoundFile,
  makeCsv,
  makeDocx,
  makeEpub,
  makePptx,
  makeTsv,
  makeXlsx,
  TITLE,
} from './__fixtures__/writers.js';
import type { DocumentFormat } from './types.js';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url)));
const golden = (format: string) => `./__fixtures__/golden/${format}.md`;

const SOURCES: [DocumentFormat, string, () => Uint8Array | Promise<Uint8Array>][] = [
  ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', makeDocx],
  ['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', makeXlsx],
  ['pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation', makePptx],
  ['epub', 'application/epub+zip', makeEpub],
  ['csv', 'text/csv', makeCsv],
  ['tsv', 'text/tab-separated-values', makeTsv],
  ['odt', 'application/vnd.oasis.opendocument.text', () => fixture('report.odt')],
  ['ods', 'application/vnd.oasis.opendocument.spreadsheet', () => fixture('report.ods')],
  ['odp', 'application/vnd.oasis.opendocument.presentation', () => fixture('report.odp')],
  ['rtf', 'application/rtf', () => fixture('report.rtf')],
  ['doc', 'application/msword', () => fixture('report.doc')],
];

describe('convertDocument', () => {
  for (const [format, contentType, make] of SOURCES) {
    it(`converts ${format} to its golden markdown`, async () => {
      const bytes = await make();
      expect(documentFormat({ bytes, contentType })).toBe(format);
      // the signature decides for binary formats: an unknown type does not change the result
      if (!['csv', 'tsv'].includes(format)) expect(documentFormat({ bytes, contentType: '' })).toBe(format);
      const converted = await convertDocument({ bytes, contentType });
      expect(converted.format).toBe(format);
      await expect(converted.markdown + '\n').toMatchFileSnapshot(golden(format));
    });
  }

  it('reads the properties a writer stored', async () => {
    const xlsx = await convertDocument({ bytes: await makeXlsx(), contentType: '' });
    expect(xlsx.metadata).toEqual({
      title: TITLE,
      author: AUTHOR,
      created: '2024-03-01T10:00:00.000Z',
      modified: '2024-03-02T11:30:00.000Z',
      numSheets: 2,
    });
    const pptx = await convertDocument({ bytes: await makePptx(), contentType: '' });
    expect(pptx.metadata).toMatchObject({ title: TITLE, author: AUTHOR, numSlides: 2 });
    const epub = await convertDocument({ bytes: await makeEpub(), contentType: '' });
    expect(epub.metadata).toMatchObject({ title: TITLE, author: AUTHOR, numChapters: 4 });
    const docx = await convertDocument({ bytes: await makeDocx(), contentType: '' });
    expect(docx.metadata).toMatchObject({ title: TITLE, author: AUTHOR });
    // OpenDocument: the author is its initial creator, not whoever saved it last (LibreOffice's 'Un-named', 'Unknown')
    for (const file of ['report.odt', 'report.ods', 'report.odp']) {
      const odf = await convertDocument({ bytes: fixture(file), contentType: '' });
      expect(odf.metadata).toMatchObject({ title: TITLE, author: AUTHOR });
    }
    // Word 97 (its summary information) and RTF (its info group), under the same names, the RTF's dates included
    const doc = await convertDocument({ bytes: fixture('report.doc'), contentType: '' });
    expect(doc.metadata).toMatchObject({ title: TITLE, author: AUTHOR });
    expect(doc.metadata.created).toMatch(/^2026-11-28T\d\d:\d\d:\d\d\.\d{3}Z$/);
    const rtf = await convertDocument({ bytes: fixture('report.rtf'), contentType: '' });
    expect(rtf.metadata).toMatchObject({ title: TITLE, author: AUTHOR });
    expect(rtf.metadata.created).toMatch(/^2026-11-28T16:59:00\.000Z$/);
    const written = (info: string) =>
      convertDocument({
        bytes: new TextEncoder().encode(`{\\rtf1\\ansi\\ansicpg1252{\\info${info}}Body}`),
        contentType: '',
      });
    const escaped = await written("{\\title Caf\\'e9 \\u8364? na\\u239?ve}{\\*\\company {X}}{\\author A \\{B\\}}");
    expect(escaped.metadata).toEqual({ title: 'Café € naïve', author: 'A {B}' });
    // a title of 50,000 escapes, and one that never closes: read in linear time, nothing made up
    const started = performance.now();
    const long = await written(`{\\title ${'\\\\'.repeat(50_000)}}`);
    expect(long.metadata).toEqual({ title: '\\'.repeat(50_000) });
    const open = new TextEncoder().encode(`{\\rtf1\\ansi{\\info{\\title ${'\\\\'.repeat(50_000)}`);
    expect(rtfMetadata(open)).toEqual({});
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('reads the subject, keywords and language a writer stored, under the v2 names of a web page', async () => {
    const docx = await convertDocument({
      bytes: await makeDocx({ subject: 'Q1 figures', keywords: 'finance, quarterly' }),
      contentType: '',
    });
    expect(docx.metadata).toMatchObject({ description: 'Q1 figures', keywords: 'finance, quarterly' });
    // no subject: the description (Word's and LibreOffice's "comments") stands in
    const plain = await convertDocument({ bytes: fixture('report.odt'), contentType: '' });
    expect(plain.metadata).toMatchObject({ description: 'Sample report' });
    expect(plain.metadata.keywords).toBeUndefined();
    const files = unzipSync(fixture('report.odt'));
    const meta = strFromU8(files['meta.xml']!).replace(
      '<dc:description>',
      '<dc:subject>Q1 figures</dc:subject><meta:keyword>finance</meta:keyword><meta:keyword>quarterly</meta:keyword>' +
        '<dc:language>en-GB</dc:language><dc:description>',
    );
    const odt = zipSync({
      mimetype: [files.mimetype!, { level: 0 }],
      ...Object.fromEntries(
        Object.entries(files)
          .filter(([path]) => path !== 'mimetype' && !path.endsWith('/'))
          .map(([path, bytes]) => [path, path === 'meta.xml' ? strToU8(meta) : bytes]),
      ),
    });
    const described = await convertDocument({ bytes: odt, contentType: '' });
    expect(described.metadata).toMatchObject({
      title: TITLE,
      author: AUTHOR,
      description: 'Q1 figures',
      keywords: 'finance, quarterly',
      language: 'en-GB',
    });
    // Word 97 (its summary information's comments) and RTF (its info group's subject, else its comments)
    const doc = await convertDocument({ bytes: fixture('report.doc'), contentType: '' });
    expect(doc.metadata).toMatchObject({ description: 'Sample report' });
    const rtf = await convertDocument({
      bytes: new TextEncoder().encode(
        '{\\rtf1\\ansi{\\info{\\title T}{\\doccomm Notes}{\\subject Q1 figures}{\\keywords finance, quarterly}}Body}',
      ),
      contentType: '',
    });
    expect(rtf.metadata).toEqual({ title: 'T', description: 'Q1 figures', keywords: 'finance, quarterly' });
  });

  it('never takes the name alone for the format, and says what a mistyped file is', async () => {
    const text = new TextEncoder().encode('<html><body>not a sheet</body></html>');
    expect(documentFormat({ bytes: text, contentType: 'text/html', fileName: 'a.csv' })).toBeUndefined();
    expect(documentFormat({ bytes: fixture('report.doc'), contentType: '', fileName: 'a.csv' })).toBe('doc');
    await expect(
      convertDocument({
        bytes: text,
        contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      }),
    ).rejects.toMatchObject({
      code: 'SCRAPE_DOCUMENT_PARSE_ERROR',
      message: /served as DOCX .* not in the DOCX format/,
    });
    // named as a document, with no type: a damaged or truncated one (the first 3 KB of a DOCX), not an unknown binary
    const truncated = (await makeDocx()).subarray(0, 3000);
    expect(documentFormat({ bytes: truncated, contentType: '' })).toBeUndefined();
    expect(documentFormat({ bytes: truncated, contentType: '', fileName: 'q3/report.docx' })).toBe('docx');
    expect(documentFormat({ bytes: truncated, contentType: 'text/html', fileName: 'report.docx' })).toBeUndefined();
    await expect(
      convertDocument({ bytes: truncated, contentType: 'application/octet-stream', fileName: 'q3/report.docx' }),
    ).rejects.toMatchObject({
      code: 'SCRAPE_DOCUMENT_PARSE_ERROR',
      message:
        'The file is named q3/report.docx, but its bytes are not in the DOCX format: it is damaged, truncated or of another format.',
    });
    // served with its type, cut short: the zip's own words, and what they mean for the file
    const epub = await makeEpub();
    for (const cut of [epub.subarray(0, epub.length >> 1), epub.subarray(0, epub.length - 20)]) {
      await expect(convertDocument({ bytes: cut, contentType: 'application/epub+zip' })).rejects.toMatchObject({
        code: 'SCRAPE_DOCUMENT_PARSE_ERROR',
        message:
          /^The (EPUB )?document (is not a readable zip archive|could not be read) \(.+\): it (is|may be) damaged or cut short\.$/,
      });
    }
    await expect(convertDocument({ bytes: fixture('report.xls'), contentType: '' })).rejects.toMatchObject({
      code: 'SCRAPE_DOCUMENT_PARSE_ERROR',
      message: /\.xls\) are not converted/,
    });
  });

  it('refuses a PowerPoint 97-2003 presentation naming its format, by its streams, type or name', async () => {
    const ppt = compoundFile(['PowerPoint Document', 'Current User']);
    expect(documentFormat({ bytes: ppt, contentType: '' })).toBe('ppt');
    expect(documentFormat({ bytes: new Uint8Array(0), contentType: 'application/vnd.ms-powerpoint' })).toBe('ppt');
    expect(documentFormat({ bytes: new Uint8Array([1, 2, 3]), contentType: '', fileName: 'deck.ppt' })).toBe('ppt');
    await expect(convertDocument({ bytes: ppt, contentType: 'application/octet-stream' })).rejects.toMatchObject({
      code: 'SCRAPE_DOCUMENT_PARSE_ERROR',
      message:
        'PowerPoint 97-2003 presentations (.ppt) are not converted: no well-kept reader of them is published on npm. ' +
        'Save the presentation as .pptx or .odp.',
    });
    // another Compound File (an Outlook message, a Visio drawing) is still no document
    expect(documentFormat({ bytes: compoundFile(['__substg1.0_0037001F']), contentType: '' })).toBeUndefined();
  });

  it("bullets and numbers an ODT's list items by their own level of the list style", async () => {
    // the sample's bullet style (WWNum1) numbers its 10th level only; a list nested in an item is its 2nd level
    const files = unzipSync(fixture('report.odt'));
    const nested = (text: string) => `<text:list><text:list-item><text:p>${text}</text:p></text:list-item></text:list>`;
    const content = strFromU8(files['content.xml']!)
      .replace('North doubled its sales</text:p>', `$&${nested('Twice the stores')}`)
      .replace('Close the books</text:p>', `$&${nested('Count the stock')}`);
    const odt = zipSync({ ...files, mimetype: [files.mimetype!, { level: 0 }], 'content.xml': strToU8(content) });
    const { markdown } = await convertDocument({ bytes: odt, contentType: '' });
    expect(markdown).toMatch(
      /^- North doubled its sales\n\s+- Twice the stores\n- South opened two stores\n1\. Close/m,
    );
    expect(markdown).toMatch(/^1\. Close the books\n\s+1\. Count the stock\n2\. Publish the report$/m);
  });

  it('reads the headings of an ODT written as paragraphs of a heading style, through its automatic styles', async () => {
    // LibreOffice saves a Word file whose heading styles have no outline level so: <text:p> of style "Heading 1"
    const files = unzipSync(fixture('report.odt'));
    const content = strFromU8(files['content.xml']!)
      .replace(
        '<office:automatic-styles>',
        '$&<style:style style:name="P99" style:family="paragraph" style:parent-style-name="Heading_20_2"/>',
      )
      .replace(
        '<text:p text:style-name="Heading_20_2">Highlights</text:p>',
        '<text:p text:style-name="P99">Highlights</text:p>',
      );
    const odt = zipSync({ ...files, mimetype: [files.mimetype!, { level: 0 }], 'content.xml': strToU8(content) });
    const converted = await convertDocument({ bytes: odt, contentType: '' }, { html: true });
    expect(converted.markdown).toMatch(/^# Quarterly Report\n\nRevenue grew/);
    expect(converted.markdown).toMatch(/\n## Highlights\n/);
    // a body paragraph and a table cell's keep their kind
    expect(converted.markdown).toMatch(/\n\| North \| 120 \|\n/);
    expect(converted.html).toMatch(/<h1[^>]*>(<span[^>]*>)?Quarterly Report(<\/span>)?<\/h1>/);
  });

  it('converts a CSV of more rows than a call takes arguments, when maxRows allows them', async () => {
    // the table's width was Math.max(...rows): a RangeError past ~120,000 rows, told as SCRAPE_DOCUMENT_TOO_LARGE
    const lines = ['id,name'];
    for (let i = 1; i <= 200_000; i++) lines.push(`${i},n${i}`);
    const bytes = new TextEncoder().encode(lines.join('\n'));
    const converted = await convertDocument({ bytes, contentType: 'text/csv' }, { maxRows: 300_000 });
    expect(converted.metadata).toEqual({ numRows: 200_001 });
    expect(converted.markdown.slice(-20)).toBe('| 200000 | n200000 |');
    // a cell's pipes, backslashes and line breaks are escaped; the others are taken as they are
    const quoted = new TextEncoder().encode('a,b\n"x|y","p\\q\nr"\n');
    expect((await convertDocument({ bytes: quoted, contentType: 'text/csv' })).markdown).toBe(
      '| a | b |\n| --- | --- |\n| x\\|y | p\\\\q<br>r |',
    );
  });

  it('returns HTML when asked', async () => {
    const docx = await convertDocument({ bytes: await makeDocx(), contentType: '' }, { html: true });
    expect(docx.html).toMatch(/<table[\s\S]*North[\s\S]*<\/table>/);
  });
});
