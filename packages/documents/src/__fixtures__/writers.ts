/**
 * Sample documents made by real writers (the npm packages `docx`, `exceljs`, `pptxgenjs`, `epub-gen-memory`,
 * `pdf-lib`), each holding the same report: what the golden tests convert. The OpenDocument, RTF and legacy Word
 * samples were made from these by LibreOffice and are committed beside this file (see `README.md` here).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

import {
  AlignmentType,
  Document,
  ExternalHyperlink,
  FootnoteReferenceRun,
  HeadingLevel,
  ImageRun,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
} from 'docx';
import { extractPdf } from '@crawlkit/extractor';
import ExcelJS from 'exceljs';
import epubModule from 'epub-gen-memory';
import { encode } from 'fast-png';
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import pptxgen from 'pptxgenjs';

export const AUTHOR = 'Ada Lovelace';
export const TITLE = 'Quarterly Report';
export const CREATED = new Date('2024-03-01T10:00:00Z');
export const MODIFIED = new Date('2024-03-02T11:30:00Z');

/** A 4 x 4 red PNG (made by fast-png). */
export function tinyPng(): Uint8Array {
  const data = new Uint8Array(4 * 4 * 4);
  for (let i = 0; i < data.length; i += 4) data.set([200, 30, 30, 255], i);
  return encode({ width: 4, height: 4, data, channels: 4 });
}

/** The report as DOCX; `properties` adds document properties (subject, keywords) to the ones every sample has. */
export async function makeDocx(properties: { subject?: string; keywords?: string } = {}): Promise<Uint8Array> {
  const doc = new Document({
    creator: AUTHOR,
    title: TITLE,
    description: 'Sample report',
    ...properties,
    footnotes: { 1: { children: [new Paragraph('Figures are unaudited.')] } },
    numbering: {
      config: [
        {
          reference: 'steps',
          levels: [{ level: 0, format: 'decimal', text: '%1.', alignment: AlignmentType.START }],
        },
      ],
    },
    sections: [
      {
        children: [
          new Paragraph({ text: TITLE, heading: HeadingLevel.HEADING_1 }),
          new Paragraph({
            children: [
              new TextRun('Revenue grew in '),
              new TextRun({ text: 'every', bold: true }),
              new TextRun(' region, see '),
              new ExternalHyperlink({
                link: 'https://example.com/results',
                children: [new TextRun({ text: 'the results', style: 'Hyperlink' })],
              }),
              new TextRun('.'),
              new FootnoteReferenceRun(1),
            ],
          }),
          new Paragraph({ text: 'Highlights', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: 'North doubled its sales', bullet: { level: 0 } }),
          new Paragraph({ text: 'South opened two stores', bullet: { level: 0 } }),
          new Paragraph({ text: 'Close the books', numbering: { reference: 'steps', level: 0 } }),
          new Paragraph({ text: 'Publish the report', numbering: { reference: 'steps', level: 0 } }),
          new Table({
            rows: [
              ['Region', 'Sales'],
              ['North', '120'],
              ['South', '80'],
            ].map(
              (cells) => new TableRow({ children: cells.map((c) => new TableCell({ children: [new Paragraph(c)] })) }),
            ),
          }),
          new Paragraph({
            children: [
              new ImageRun({
                type: 'png',
                data: tinyPng(),
                transformation: { width: 40, height: 40 },
                altText: { name: 'Logo', description: 'Company logo', title: 'Logo' },
              }),
            ],
          }),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

export async function makeXlsx(): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  book.creator = AUTHOR;
  book.title = TITLE;
  book.created = CREATED;
  book.modified = MODIFIED;
  const sales = book.addWorksheet('Sales');
  sales.addRow(['Region', 'Sales', 'Share']);
  sales.addRow(['North', 120, 0.6]);
  sales.addRow(['South', 80, 0.4]);
  sales.addRow(['Total', { formula: 'B2+B3', result: 200 }, 1]);
  const notes = book.addWorksheet('Notes');
  notes.addRow(['Note']);
  notes.addRow(['Figures | unaudited']);
  return new Uint8Array(await book.xlsx.writeBuffer());
}

export async function makePptx(): Promise<Uint8Array> {
  // a CommonJS module typed as an ES one: its class is the default export at run time
  const PptxGenJS = pptxgen as unknown as typeof pptxgen.default;
  const deck = new PptxGenJS();
  deck.author = AUTHOR;
  deck.title = TITLE;
  const first = deck.addSlide();
  first.addText(TITLE, { x: 0.5, y: 0.5, w: 9, h: 1, fontSize: 32 });
  first.addText('Revenue grew in every region', { x: 0.5, y: 1.8, w: 9, h: 1 });
  first.addNotes('Thank the regional teams.');
  const second = deck.addSlide();
  second.addText('Highlights', { x: 0.5, y: 0.5, w: 9, h: 1, fontSize: 28 });
  second.addText(
    [
      { text: 'North doubled its sales', options: { bullet: true } },
      { text: 'South opened two stores', options: { bullet: true } },
    ],
    { x: 0.5, y: 1.8, w: 9, h: 2 },
  );
  second.addTable(
    [
      [{ text: 'Region' }, { text: 'Sales' }],
      [{ text: 'North' }, { text: '120' }],
    ],
    { x: 0.5, y: 4, w: 6 },
  );
  return new Uint8Array((await deck.write({ outputType: 'nodebuffer' })) as Buffer);
}

export async function makeEpub(): Promise<Uint8Array> {
  // a CommonJS module: its function is the default import under vitest, under `default` of it under Node
  const loaded = epubModule as unknown as typeof epubModule.default | { default: typeof epubModule.default };
  const epub = typeof loaded === 'function' ? loaded : loaded.default;
  const book = await epub({ title: TITLE, author: AUTHOR, verbose: false, ignoreFailedDownloads: true }, [
    { title: 'Opening', content: '<p>Revenue grew in <b>every</b> region.</p>' },
    { title: 'Highlights', content: '<ul><li>North doubled its sales</li><li>South opened two stores</li></ul>' },
    { title: 'Closing', content: '<p>Publish the report.</p>' },
  ]);
  return new Uint8Array(book);
}

export function makeCsv(): Uint8Array {
  return new TextEncoder().encode('Region,Sales,Note\nNorth,120,"Doubled, again"\nSouth,80,"Two ""new"" stores"\n');
}

export function makeTsv(): Uint8Array {
  return new TextEncoder().encode('Region\tSales\nNorth\t120\nSouth\t80\n');
}

/** Chromium's screenshot of a page with three lines of text (see README.md here). */
export function screenshotPng(): Uint8Array {
  return new Uint8Array(readFileSync(new URL('./screenshot.png', import.meta.url)));
}

/** Words OCR must find in `screenshotPng()`. */
export const SCREENSHOT_WORDS = ['Invoice 4521', 'quick brown fox', 'Total due'];

/** A PDF (pdf-lib) of two pages: the screenshot as a scanned page without a text layer, then a page of text. */
export async function makeScannedPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle('Scanned invoice');
  const png = await pdf.embedPng(screenshotPng());
  pdf.addPage([612, 792]).drawImage(png, { x: 20, y: 400, width: 560, height: 249 });
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([612, 792]).drawText('Text layer page two', { x: 50, y: 700, size: 20, font });
  return pdf.save();
}

/**
 * A PDF (pdf-lib) of three pages: one without a text layer whose rendering for OCR takes seconds (40,000 wide strokes,
 * ~0.7 ms each on @napi-rs/canvas at load 7, in one run pdf.js yields from to microtasks only; its text layer is read
 * at once), the screenshot as a scanned page, then a page of text.
 */
export async function makeSlowScannedPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const strokes = Array.from({ length: 40_000 }, (_, i) => `${i % 600} 0 m ${600 - (i % 600)} 792 l S`);
  const slow = pdf.addPage([612, 792]);
  slow.node.set(PDFName.of('Contents'), pdf.context.register(pdf.context.flateStream(`200 w ${strokes.join(' ')}`)));
  const png = await pdf.embedPng(screenshotPng());
  pdf.addPage([612, 792]).drawImage(png, { x: 20, y: 400, width: 560, height: 249 });
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([612, 792]).drawText('Text layer page three', { x: 50, y: 700, size: 20, font });
  return pdf.save();
}

/** Two paragraphs of prose, the second running across a page break when set by `makeProsePdf`. */
export const PROSE = [
  'The installer copies the program files to the folder you choose, then writes a short configuration file next ' +
    'to them, which the service reads each time it starts.',
  'A second paragraph begins here and goes on long enough to wrap over several lines, so that the last line of ' +
    'the first page ends in the middle of a sentence and the',
  'rest of the sentence opens the second page, where the paragraph ends.',
];

/**
 * Prose set by pdf-lib at 12 points, wrapped to the text width: `PROSE`'s first two paragraphs on page one, the
 * second cut mid-sentence at the page's end, its rest on page two.
 */
export async function makeProsePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const set = { size: 12, font, lineHeight: 16, maxWidth: 468, x: 72 };
  const one = pdf.addPage([612, 792]);
  one.drawText(PROSE[0]!, { ...set, y: 700 });
  one.drawText(PROSE[1]!, { ...set, y: 640 });
  pdf.addPage([612, 792]).drawText(PROSE[2]!, { ...set, y: 700 });
  return pdf.save();
}

/** A PDF page rendered to PNG at twice its size (pdf.js, as the OCR of a PDF page does): an image of text. */
export async function renderPage(pdf: Uint8Array, page: number): Promise<Uint8Array> {
  // the extractor loads its patched pdf.js first, which a thread must (pdf-parse's own would be found first otherwise)
  await extractPdf(pdf);
  const { PDFParse } = await import('pdf-parse');
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    const shot = await parser.getScreenshot({ partial: [page], scale: 2, imageBuffer: true, imageDataUrl: false });
    return shot.pages[0]!.data;
  } finally {
    await parser.destroy();
  }
}

/**
 * A committed OpenDocument sample made `times` larger, for benchmarks on a machine without LibreOffice: the body of an
 * ODT (what follows its sequence declarations) or each data row of an ODS table (a row holding a value) repeated.
 */
export function enlargeOdf(name: 'report.odt' | 'report.ods', times: number): Uint8Array {
  const files = unzipSync(new Uint8Array(readFileSync(new URL(`./${name}`, import.meta.url))));
  let content = strFromU8(files['content.xml']!);
  if (name === 'report.odt') {
    const start = content.indexOf('</text:sequence-decls>') + '</text:sequence-decls>'.length;
    const end = content.indexOf('</office:text>');
    content = content.slice(0, start) + content.slice(start, end).repeat(times) + content.slice(end);
  } else {
    content = content.replace(
      /<table:table-row\b[^>]*>(?:(?!<\/table:table-row>)[\s\S])*<\/table:table-row>/g,
      (row) => (row.includes('office:value="') ? row.repeat(times) : row),
    );
  }
  const entries: Zippable = { mimetype: [files.mimetype!, { level: 0 }] };
  for (const [path, bytes] of Object.entries(files)) {
    if (path !== 'mimetype' && !path.endsWith('/')) entries[path] = path === 'content.xml' ? strToU8(content) : bytes;
  }
  return zipSync(entries);
}

/**
 * A committed OpenDocument sample as LibreOffice saves it with a password: its `content.xml` and `styles.xml` are
 * bytes no one reads without it (stored, as the encrypted parts are), and the manifest gives their
 * `<manifest:encryption-data>` (Blowfish, the key derived by PBKDF2 from the password).
 */
export function encryptedOdf(name: 'report.odt' | 'report.ods' | 'report.odp'): Uint8Array {
  const files = unzipSync(new Uint8Array(readFileSync(new URL(`./${name}`, import.meta.url))));
  const locked = new Set(['content.xml', 'styles.xml']);
  const encryption =
    '<manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="c2VjcmV0">' +
    '<manifest:algorithm manifest:algorithm-name="Blowfish CFB" manifest:initialisation-vector="aXZpdml2aXY="/>' +
    '<manifest:key-derivation manifest:key-derivation-name="PBKDF2" manifest:iteration-count="1024" ' +
    'manifest:salt="c2FsdHNhbHRzYWx0c2FsdA=="/></manifest:encryption-data>';
  const manifest = strFromU8(files['META-INF/manifest.xml']!).replace(
    /<manifest:file-entry\b([^>]*?)manifest:full-path="(content|styles)\.xml"([^>]*?)\/>/g,
    (_entry, before: string, part: string, after: string) =>
      `<manifest:file-entry${before}manifest:full-path="${part}.xml"${after}>${encryption}</manifest:file-entry>`,
  );
  const entries: Zippable = { mimetype: [files.mimetype!, { level: 0 }] };
  for (const [path, bytes] of Object.entries(files)) {
    if (path === 'mimetype' || path.endsWith('/')) continue;
    if (path === 'META-INF/manifest.xml') entries[path] = strToU8(manifest);
    // what encryption leaves: bytes of no pattern, the size of the part
    else if (locked.has(path)) entries[path] = [randomBytes(bytes.length), { level: 0 }];
    else entries[path] = bytes;
  }
  return zipSync(entries);
}

/**
 * A Compound File (the container of Office 97-2003 files) holding streams of these names, 4 KiB of filler each, laid
 * out as the format says (header, FAT, one directory sector, the streams): what `detectFormat` reads a legacy file's
 * kind from. At most three streams (one directory sector).
 */
export function compoundFile(names: readonly string[]): Uint8Array {
  const sector = 512;
  const size = 4096; // at the mini stream cutoff: a stream of regular sectors
  const header = Buffer.alloc(sector);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header, 0);
  header.writeUInt16LE(0x3e, 24); // minor version
  header.writeUInt16LE(3, 26); // major version 3: 512-byte sectors
  header.writeUInt16LE(0xfffe, 28); // little-endian
  header.writeUInt16LE(9, 30); // sector shift
  header.writeUInt16LE(6, 32); // mini sector shift
  header.writeUInt32LE(1, 44); // one FAT sector
  header.writeUInt32LE(1, 48); // the directory is sector 1
  header.writeUInt32LE(4096, 56); // mini stream cutoff
  header.writeUInt32LE(0xfffffffe, 60); // no mini FAT
  header.writeUInt32LE(0xfffffffe, 68); // no DIFAT sectors
  header.fill(0xff, 76, sector);
  header.writeUInt32LE(0, 76); // the FAT is sector 0
  const perStream = size / sector;
  const fat = Buffer.alloc(sector, 0xff);
  fat.writeUInt32LE(0xfffffffd, 0); // sector 0: FAT
  fat.writeUInt32LE(0xfffffffe, 4); // sector 1: the directory
  const entry = (name: string, type: number, start: number, length: number) => {
    const e = Buffer.alloc(128);
    e.write(name, 0, 'utf16le');
    e.writeUInt16LE((name.length + 1) * 2, 64);
    e.writeUInt8(type, 66);
    e.fill(0xff, 68, 80); // no siblings, no child
    e.writeUInt32LE(start, 116);
    e.writeUInt32LE(length, 120);
    return e;
  };
  const root = entry('Root Entry', 5, 0xfffffffe, 0);
  const streams = names.slice(0, 3).map((name, i) => {
    const first = 2 + i * perStream;
    for (let s = first; s < first + perStream; s++)
      fat.writeUInt32LE(s === first + perStream - 1 ? 0xfffffffe : s + 1, s * 4);
    const e = entry(name, 2, first, size);
    if (i + 1 < Math.min(names.length, 3)) e.writeUInt32LE(i + 2, 72); // its right sibling: the next stream
    return e;
  });
  if (streams.length) root.writeUInt32LE(1, 76); // the root's child: the first stream
  const directory = Buffer.alloc(sector);
  Buffer.concat([root, ...streams]).copy(directory);
  const data = Buffer.alloc(streams.length * size, 0x20);
  return new Uint8Array(Buffer.concat([header, fat, directory, data]));
}
