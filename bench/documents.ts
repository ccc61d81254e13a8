/**
 * Documents benchmark: `pnpm bench:documents` (builds first; `node bench/documents.ts [--quick]` after a build).
 *
 * One row per format: `convertDocument()` of `@crawlkit/documents` (the zip guard, the library, the markdown it shapes)
 * beside the library's own conversion alone on the same file (officeparser's parse and markdown with its defaults;
 * word-extractor; csv-parse; Tesseract on a warm worker), and for DOCX mammoth's HTML through the extractor's
 * `htmlToMarkdown` (the alternative rejected in docs/decisions.md). Files are made by the npm writers (docx, exceljs,
 * pptxgenjs, epub-gen-memory) and, for ODT, ODS, ODP, RTF and DOC, converted from them by LibreOffice when `soffice` is
 * on the PATH (otherwise ODT and ODS are the committed LibreOffice samples repeated, `enlargeOdf`, and the other rows
 * are skipped). Times are medians of interleaved rounds; ms per MB of the file. Writes bench/results/documents.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { convertDocument, stopOcr, type DocumentFormat } from '@crawlkit/documents';
import { htmlToMarkdown } from '@crawlkit/extractor';
import { parse as parseCsv } from 'csv-parse/sync';
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import epubModule from 'epub-gen-memory';
import ExcelJS from 'exceljs';
import mammoth from 'mammoth';
import { OfficeGenerator, OfficeParser } from 'officeparser';
import pptxgen from 'pptxgenjs';
import WordExtractor from 'word-extractor';

import { enlargeOdf } from '../packages/documents/src/__fixtures__/writers.ts';
import { finish, isQuick, median, type Row } from './lib/report.ts';

const quick = isQuick();
const ROUNDS = quick ? 2 : 7;
const SCALE = quick ? 0.2 : 1;
const MB = 1024 * 1024;
const n = (count: number) => Math.max(1, Math.round(count * SCALE));

const lorem = (i: number) =>
  `Paragraph ${i}: revenue grew in every region while costs held steady, and the board approved the plan for the ` +
  `next quarter after a long discussion of the figures in table ${i}.`;

async function docxFile(): Promise<Uint8Array> {
  const children: (Paragraph | Table)[] = [];
  for (let s = 1; s <= n(400); s++) {
    children.push(new Paragraph({ text: `Section ${s}`, heading: HeadingLevel.HEADING_2 }));
    for (let p = 0; p < 4; p++) children.push(new Paragraph({ children: [new TextRun(lorem(s * 10 + p))] }));
    children.push(new Paragraph({ text: `Point ${s}a`, bullet: { level: 0 } }));
    children.push(new Paragraph({ text: `Point ${s}b`, bullet: { level: 0 } }));
    const rows = [
      ['Region', 'Sales'],
      ['North', String(s)],
      ['South', String(s * 2)],
    ];
    children.push(
      new Table({
        rows: rows.map(
          (r) => new TableRow({ children: r.map((c) => new TableCell({ children: [new Paragraph(c)] })) }),
        ),
      }),
    );
  }
  return new Uint8Array(await Packer.toBuffer(new Document({ sections: [{ children }] })));
}

async function xlsxFile(): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  for (let s = 1; s <= 3; s++) {
    const sheet = book.addWorksheet(`Sheet ${s}`);
    sheet.addRow(['Id', 'Region', 'Sales', 'Share', 'Note']);
    for (let r = 1; r <= n(8_000); r++) sheet.addRow([r, `Region ${r % 17}`, r * 3, r / 1000, `note ${r}`]);
  }
  return new Uint8Array(await book.xlsx.writeBuffer());
}

async function pptxFile(): Promise<Uint8Array> {
  const PptxGenJS = pptxgen as unknown as typeof pptxgen.default;
  const deck = new PptxGenJS();
  for (let i = 1; i <= n(300); i++) {
    const slide = deck.addSlide();
    slide.addText(`Slide ${i}`, { x: 0.5, y: 0.3, w: 9, h: 0.8, fontSize: 28 });
    slide.addText(lorem(i), { x: 0.5, y: 1.3, w: 9, h: 2 });
    slide.addNotes(`Speaker notes of slide ${i}.`);
  }
  return new Uint8Array((await deck.write({ outputType: 'nodebuffer' })) as Buffer);
}

async function epubFile(): Promise<Uint8Array> {
  const loaded = epubModule as unknown as typeof epubModule.default | { default: typeof epubModule.default };
  const epub = typeof loaded === 'function' ? loaded : loaded.default;
  const chapters = Array.from({ length: n(150) }, (_, c) => ({
    title: `Chapter ${c + 1}`,
    content: Array.from({ length: 20 }, (_, p) => `<p>${lorem(c * 100 + p)}</p>`).join(''),
  }));
  return new Uint8Array(await epub({ title: 'Bench', author: 'Bench', verbose: false }, chapters));
}

function csvFile(): Uint8Array {
  const lines = ['id,region,sales,note'];
  for (let r = 1; r <= n(60_000); r++) lines.push(`${r},Region ${r % 17},${r * 3},"note, with a comma ${r}"`);
  return new TextEncoder().encode(lines.join('\n'));
}

/** LibreOffice's conversion of `bytes` (named `name`) to `to`, or undefined without `soffice`. */
function libreOffice(bytes: Uint8Array, name: string, to: string): Uint8Array | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'ck-bench-docs-'));
  try {
    writeFileSync(join(dir, name), bytes);
    execFileSync('soffice', ['--headless', '--convert-to', to, '--outdir', dir, join(dir, name)], { stdio: 'ignore' });
    return new Uint8Array(readFileSync(join(dir, name.replace(/\.[a-z]+$/, `.${to}`))));
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function officeparserAlone(bytes: Uint8Array): Promise<void> {
  const ast = await OfficeParser.parseOffice(Buffer.from(bytes), {});
  await OfficeGenerator.generate(ast, 'md');
}

const require = createRequire(import.meta.url);
const langPath = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

interface Case {
  format: DocumentFormat;
  bytes: Uint8Array;
  library: string;
  alone: () => Promise<unknown>;
  alternative?: { name: string; run: () => Promise<unknown> };
  contentType?: string;
}

const docx = await docxFile();
const xlsx = await xlsxFile();
const pptx = await pptxFile();
const cases: Case[] = [
  {
    format: 'docx',
    bytes: docx,
    library: 'officeparser',
    alone: () => officeparserAlone(docx),
    alternative: {
      name: 'mammoth',
      run: async () => htmlToMarkdown((await mammoth.convertToHtml({ buffer: Buffer.from(docx) })).value),
    },
  },
  { format: 'xlsx', bytes: xlsx, library: 'officeparser', alone: () => officeparserAlone(xlsx) },
  { format: 'pptx', bytes: pptx, library: 'officeparser', alone: () => officeparserAlone(pptx) },
];
const epub = await epubFile();
cases.push({ format: 'epub', bytes: epub, library: 'officeparser', alone: () => officeparserAlone(epub) });
const csv = csvFile();
cases.push({
  format: 'csv',
  bytes: csv,
  contentType: 'text/csv',
  library: 'csv-parse',
  alone: () => Promise.resolve(parseCsv(Buffer.from(csv), { relax_column_count: true })),
});
/** Without LibreOffice, ODT and ODS are the committed samples made larger (`enlargeOdf`): another file, noted. */
const enlarged: string[] = [];
for (const [format, from, name, to] of [
  ['odt', docx, 'a.docx', 'odt'],
  ['rtf', docx, 'a.docx', 'rtf'],
  ['ods', xlsx, 'a.xlsx', 'ods'],
  ['odp', pptx, 'a.pptx', 'odp'],
] as const) {
  let bytes = libreOffice(from, name, to);
  if (!bytes && (format === 'odt' || format === 'ods')) {
    bytes = format === 'odt' ? enlargeOdf('report.odt', n(400)) : enlargeOdf('report.ods', n(6_000));
    enlarged.push(format);
  }
  if (bytes) cases.push({ format, bytes, library: 'officeparser', alone: () => officeparserAlone(bytes) });
}
const doc = libreOffice(docx, 'a.docx', 'doc');
if (doc) {
  cases.push({
    format: 'doc',
    bytes: doc,
    library: 'word-extractor',
    alone: () => new WordExtractor().extract(Buffer.from(doc)),
  });
}
const png = new Uint8Array(
  readFileSync(new URL('../packages/documents/src/__fixtures__/screenshot.png', import.meta.url)),
);
const { createWorker, OEM } = await import('tesseract.js');
const tesseract = await createWorker('eng', OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: 'none' });
cases.push({
  format: 'image',
  bytes: png,
  library: 'tesseract.js',
  alone: () => tesseract.recognize(Buffer.from(png)),
});

const timings = new Map<string, { ours: number[]; alone: number[]; alternative: number[] }>();
const time = async (fn: () => Promise<unknown>) => {
  const start = performance.now();
  await fn();
  return performance.now() - start;
};
// one warm-up each (module loading, the OCR worker), then rounds interleaved so that noise hits every row alike
for (let round = -1; round < ROUNDS; round++) {
  for (const c of cases) {
    const entry = timings.get(c.format) ?? { ours: [], alone: [], alternative: [] };
    timings.set(c.format, entry);
    const ours = await time(() =>
      convertDocument({ bytes: c.bytes, contentType: c.contentType ?? '' }, { images: true, maxSheetCells: 1e7 }),
    );
    const alone = await time(c.alone);
    const alternative = c.alternative ? await time(c.alternative.run) : Number.NaN;
    if (round < 0) continue;
    entry.ours.push(ours);
    entry.alone.push(alone);
    entry.alternative.push(alternative);
  }
}
await tesseract.terminate();
await stopOcr();

const rows: Row[] = cases.map((c) => {
  const t = timings.get(c.format)!;
  const mb = c.bytes.length / MB;
  const ours = median(t.ours);
  const alone = median(t.alone);
  const alternative = median(t.alternative);
  return {
    format: c.format,
    'file KB': Math.round(c.bytes.length / 1024),
    'crawlkit ms': ours,
    'crawlkit ms/MB': ours / mb,
    library: c.library,
    'library ms/MB': alone / mb,
    'crawlkit / library': ours / alone,
    'mammoth+htmlToMarkdown ms/MB': Number.isFinite(alternative) ? alternative / mb : null,
  };
});
const missing = ['odt', 'rtf', 'ods', 'odp', 'doc'].filter((f) => !cases.some((c) => c.format === f));
finish({
  name: 'documents',
  title: `Documents: convertDocument() beside the library alone (median of ${ROUNDS} rounds)`,
  quick,
  rows,
  goals: [],
  notes: [
    'crawlkit = zip guard (inflates every entry once more, counting) + the library + markdown shaping.',
    ...(missing.length ? [`no soffice on the PATH: rows ${missing.join(', ')} skipped`] : []),
    ...(enlarged.length
      ? [`no soffice on the PATH: ${enlarged.join(', ')} are the committed samples repeated (enlargeOdf)`]
      : []),
  ],
});
