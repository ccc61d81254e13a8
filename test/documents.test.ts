/**
 * Documents at the public API: a scrape of a URL serving each format (real files from real writers, served by the
 * fixture site on 127.0.0.1) and `ck.parse()` of the same bytes give the golden markdown of `@crawlkit/documents`;
 * images and scanned PDF pages are read by OCR.
 */
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';

import type { ErrorResponse } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import {
  makeCsv,
  makeDocx,
  makeEpub,
  makePptx,
  makeScannedPdf,
  makeTsv,
  makeXlsx,
  SCREENSHOT_WORDS,
  screenshotPng,
} from '../packages/documents/src/__fixtures__/writers.ts';
import { writePdf } from '../packages/extractor/src/pdf/__fixtures__/write-pdf.ts';
import { startFixtureServer, type Routes } from '../fixtures/server.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { data } from './helpers/scrape.ts';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../packages/documents/src/__fixtures__/${name}`, import.meta.url)));
const golden = (format: string) =>
  readFileSync(new URL(`../packages/documents/src/__fixtures__/golden/${format}.md`, import.meta.url), 'utf8').trim();

/** Each format: the file, the type it is served with, its name. */
const FORMATS: Record<string, { type: string; make: () => Uint8Array | Promise<Uint8Array> }> = {
  docx: { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', make: makeDocx },
  xlsx: { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', make: makeXlsx },
  pptx: { type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', make: makePptx },
  epub: { type: 'application/epub+zip', make: makeEpub },
  csv: { type: 'text/csv; charset=utf-8', make: makeCsv },
  tsv: { type: 'text/tab-separated-values', make: makeTsv },
  odt: { type: 'application/vnd.oasis.opendocument.text', make: () => fixture('report.odt') },
  ods: { type: 'application/vnd.oasis.opendocument.spreadsheet', make: () => fixture('report.ods') },
  odp: { type: 'application/vnd.oasis.opendocument.presentation', make: () => fixture('report.odp') },
  rtf: { type: 'application/rtf', make: () => fixture('report.rtf') },
  doc: { type: 'application/msword', make: () => fixture('report.doc') },
};

const files = new Map<string, Uint8Array>();
const serve = (res: ServerResponse, type: string, body: Uint8Array) => {
  res.writeHead(200, { 'content-type': type, 'content-length': body.length });
  res.end(body);
};
const routes: Routes = {
  '/doc/*': (_req, res, ctx) => {
    const [, , format, served] = ctx.url.pathname.split('/');
    const body = files.get(format!)!;
    serve(res, served === 'octet' ? 'application/octet-stream' : FORMATS[format!]!.type, body);
  },
  '/image/screenshot.png': (_req, res) => serve(res, 'image/png', screenshotPng()),
  '/scanned.pdf': (_req, res) => serve(res, 'application/pdf', files.get('scanned')!),
  '/survey.pdf': (_req, res) => serve(res, 'application/pdf', files.get('survey')!),
};

/** A PDF report laid out as a writer would: a title, a section heading, a paragraph, a list. */
const survey = () =>
  writePdf(
    [
      {
        blocks: [
          { text: 'Branch Survey', size: 22, bold: true },
          { text: 'Findings', size: 14, bold: true, gap: 10 },
          { text: 'Every branch answered the survey, most of them within a week of receiving it.', gap: 4 },
          { text: '• Staffing is short in the north', x: 12, gap: 4 },
          { text: '• Stock is <ample> & well kept', x: 12 },
        ],
      },
    ],
    { info: { title: 'Branch Survey 2024', author: 'Survey Team', created: new Date('2024-03-01T10:00:00Z') } },
  );

const env = useFixtureEngine({
  server: async () => {
    for (const [format, { make }] of Object.entries(FORMATS)) files.set(format, await make());
    files.set('scanned', await makeScannedPdf());
    files.set('survey', await survey());
    return startFixtureServer({ routes });
  },
  crawlkit: { store: 'memory', engine: 'http', extractionBudgetMs: 60_000 },
});

describe('documents by URL and by upload', () => {
  for (const format of Object.keys(FORMATS)) {
    it(`scrapes and parses ${format} into its golden markdown`, async () => {
      const url = `${env.server.url}/doc/${format}`;
      const scraped = data(await env.ck.scrape({ url, formats: ['markdown', 'html'] }));
      expect(scraped.markdown!.trim()).toBe(golden(format));
      expect(scraped.html).toMatch(/North/);
      expect(scraped.metadata).toMatchObject({ statusCode: 200, creditsUsed: 1 });
      const parsed = data(
        await env.ck.parse({
          data: files.get(format)!,
          filename: `report.${format}`,
          contentType: FORMATS[format]!.type,
        }),
      );
      expect(parsed.markdown!.trim()).toBe(golden(format));
      expect(parsed.metadata).toMatchObject({ sourceURL: `report.${format}`, creditsUsed: 1 });
    });
  }

  it('recognizes binary documents by their bytes whatever type they are served with', async () => {
    const docx = data(await env.ck.scrape({ url: `${env.server.url}/doc/docx/octet` }));
    expect(docx.markdown!.trim()).toBe(golden('docx'));
    const ods = data(await env.ck.scrape({ url: `${env.server.url}/doc/ods/octet` }));
    expect(ods.metadata).toMatchObject({ numSheets: 2 });
  });

  it('parses a CSV uploaded without a type by its name, once its bytes are text', async () => {
    const parsed = data(await env.ck.parse({ data: makeCsv(), filename: 'sales.csv' }));
    expect(parsed.markdown!.trim()).toBe(golden('csv'));
    const html = data(await env.ck.parse({ data: '<h1>Hello</h1><p>upload</p>', filename: 'page.html' }));
    expect(html.markdown).toMatch(/# Hello/);
  });

  it('parses a text file of any other name (source, config, no extension) as text, and refuses binary bytes', async () => {
    // Before: SCRAPE_UNSUPPORTED_FILE_ERROR 'unsupported file: binary content' for each of them.
    const files: [string, string][] = [
      ['tool.py', 'def plane(sole):\n    return sole.flatten()\n'],
      ['index.ts', 'export const grit = 1000; // héllo\n'],
      ['config.yaml', 'stones:\n  - 1000\n  - 6000\n'],
      ['README', 'Sharpen the iron, then hone the back.\n'],
    ];
    for (const [filename, text] of files) {
      const parsed = data(await env.ck.parse({ data: new TextEncoder().encode(text), filename }));
      expect(parsed.markdown, filename).toContain(text.trim().split('\n')[0]);
      expect(parsed.metadata.contentType, filename).toBe('text/plain');
    }
    const binary = await env.ck.parse({ data: new Uint8Array([0x00, 0x01, 0xff, 0xfe, 0x00, 0x10]), filename: 'blob' });
    expect(binary).toMatchObject({ success: false, code: 'SCRAPE_UNSUPPORTED_FILE_ERROR' });
  });

  it('reads an image by OCR with the image parser only', async () => {
    const url = `${env.server.url}/image/screenshot.png`;
    const refused = (await env.ck.scrape({ url })) as ErrorResponse;
    expect(refused).toMatchObject({ success: false, code: 'SCRAPE_UNSUPPORTED_FILE_ERROR' });
    const read = data(await env.ck.scrape({ url, parsers: ['image'] }));
    for (const words of SCREENSHOT_WORDS) expect(read.markdown).toContain(words);
    expect(read.metadata).toMatchObject({ numPages: 1, creditsUsed: 1 });
    // an upload is read by OCR by default: the file was sent to be parsed
    const parsed = data(await env.ck.parse({ data: screenshotPng(), filename: 'shot.png' }));
    for (const words of SCREENSHOT_WORDS) expect(parsed.markdown).toContain(words);
    // its type told from its bytes, as a PDF's or a Word file's is (it was '' before)
    expect(parsed.metadata).toMatchObject({ contentType: 'image/png', numPages: 1, creditsUsed: 1 });
    const jpeg = readFileSync(new URL('../packages/documents/src/__fixtures__/screenshot.jpg', import.meta.url));
    const webp = readFileSync(new URL('../packages/documents/src/__fixtures__/screenshot.webp', import.meta.url));
    expect(data(await env.ck.parse({ data: jpeg, filename: 'scan' })).metadata.contentType).toBe('image/jpeg');
    expect(data(await env.ck.parse({ data: webp, filename: 'scan' })).metadata.contentType).toBe('image/webp');
  });

  it('reads the scanned page of a PDF by OCR in auto mode, and only the text layer in fast mode', async () => {
    const url = `${env.server.url}/scanned.pdf`;
    const auto = data(await env.ck.scrape({ url }));
    for (const words of SCREENSHOT_WORDS) expect(auto.markdown).toContain(words);
    expect(auto.markdown).toContain('Text layer page two');
    expect(auto.metadata).toMatchObject({ numPages: 2, creditsUsed: 2 });
    const fast = data(await env.ck.scrape({ url, parsers: [{ type: 'pdf', mode: 'fast' }], maxAge: 0 }));
    expect(fast.markdown!.trim()).toBe('Text layer page two');
    const ocr = data(await env.ck.scrape({ url, parsers: [{ type: 'pdf', mode: 'ocr' }], maxAge: 0 }));
    expect(ocr.markdown).toContain('Invoice 4521');
    expect(ocr.markdown).toMatch(/Text layer page two/i);
  });

  it("gives a PDF's headings and lists in its markdown and html, its information as metadata, by URL and upload", async () => {
    const markdown = [
      '# Branch Survey',
      '## Findings',
      'Every branch answered the survey, most of them within a week of receiving it.',
      '- Staffing is short in the north\n- Stock is <ample> & well kept',
    ].join('\n\n');
    const scraped = data(await env.ck.scrape({ url: `${env.server.url}/survey.pdf`, formats: ['markdown', 'html'] }));
    expect(scraped.markdown).toBe(markdown);
    expect(scraped.html).toBe(
      '<html><body><h1>Branch Survey</h1><h2>Findings</h2><p>Every branch answered the survey, most of them within ' +
        'a week of receiving it.</p><ul><li>Staffing is short in the north</li><li>Stock is &lt;ample&gt; &amp; well ' +
        'kept</li></ul></body></html>',
    );
    const parsed = data(await env.ck.parse({ data: files.get('survey')!, filename: 'survey.pdf' }));
    expect(parsed.markdown).toBe(markdown);
    // the PDF's information under the names a Word file's has, pdf.js's raw keys left out
    for (const doc of [scraped, parsed]) {
      expect(doc.metadata).toMatchObject({
        title: 'Branch Survey 2024',
        author: 'Survey Team',
        created: '2024-03-01T10:00:00.000Z',
        numPages: 1,
      });
      expect(Object.keys(doc.metadata).filter((key) => /^[A-Z]/.test(key))).toEqual([]);
    }
  });

  it('answers bad uploads in the v2 error shape', async () => {
    expect(await env.ck.parse({ data: new Uint8Array(0), filename: 'a.docx' })).toMatchObject({
      success: false,
      code: 'BAD_REQUEST',
    });
    expect(await env.ck.parse({ data: makeCsv(), filename: '' })).toMatchObject({ code: 'BAD_REQUEST' });
    // a Buffer or a path where `{ data, filename }` goes: told the shape, not that `file.filename` is missing
    const cases: [unknown, RegExp][] = [
      [Buffer.from(makeCsv()), /not the bytes alone: \{ data, filename, contentType\? \}/],
      ['/tmp/report.docx', /not a path or text alone: \{ data, filename, contentType\? \}/],
    ];
    for (const [file, error] of cases) {
      expect(await env.ck.parse(file as never)).toMatchObject({
        code: 'BAD_REQUEST',
        error: expect.stringMatching(error),
      });
    }
    expect(
      await env.ck.parse({ data: makeCsv(), filename: 'a.csv' }, { formats: ['screenshot'] } as never),
    ).toMatchObject({ code: 'BAD_REQUEST', error: expect.stringMatching(/screenshot/) });
    const bogus = await env.ck.parse({
      data: new TextEncoder().encode('plain words'),
      filename: 'a.docx',
      contentType: FORMATS.docx!.type,
    });
    expect(bogus).toMatchObject({ code: 'SCRAPE_DOCUMENT_PARSE_ERROR' });
  });
});
