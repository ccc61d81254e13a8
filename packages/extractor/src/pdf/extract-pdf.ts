import { sizeText } from '@crawlkit/options/size-text';

import { ExtractorError } from '../errors.js';
import { documentMetadata } from './document-info.js';
import { withFormFields, type WidgetAnnotation } from './form-fields.js';
import { copyOutline, type OutlineDocument, readOutline, underTitle } from './outline.js';
import { type Line, pageLines, type TextItem, type TextStyle } from './layout.js';
import type { OcrLine } from './ocr-lines.js';
import { joinHyphenated, runningLineMask } from './page-furniture.js';
import { loadPdfParse } from './pdfjs-worker.js';
import { bodyStyle, joinPages, linesToMarkdown, type OutlineIndex } from './structure.js';

export interface PdfContent {
  /**
   * The text of the parsed pages as markdown: paragraphs, headings, lists and tables read from the type and layout
   * (`structure.ts`), their running headers and footers left out (`runningLineMask`).
   */
  markdown: string;
  /** Pages parsed (what a scrape is billed for). */
  numPages: number;
  /**
   * The markdown of each parsed page, in order, its running headers and footers kept: '' for a page without a text
   * layer (a scanned page).
   */
  pageMarkdown: string[];
  /** Pages in the document (more than `numPages` when a cap cut it). */
  totalPages: number;
  title?: string;
  /**
   * The document information under crawlkit's names (`documentMetadata`): `title`, `author`, `description`,
   * `keywords`, `creator`, `producer`, `created` and `modified` (ISO 8601), `language`.
   */
  metadata: Record<string, string>;
  /** Why fewer pages than the document has were parsed, besides an explicit `maxPages`. */
  warnings: string[];
  /** True when `deadline` passed before every page was parsed (one of the `warnings` says how many were). */
  timedOut?: boolean;
}

/** Pages parsed when `maxPages` is not given. */
export const DEFAULT_PDF_MAX_PAGES = 1000;
/** The largest `maxPages` the v2 `pdf` parser accepts (crawlkit's request schema refuses more). */
export const PDF_MAX_PAGES_LIMIT = 10_000;
/** Bytes pdf.js may decompress for one PDF when `maxDecodedBytes` is not given (100 MiB). */
export const DEFAULT_PDF_MAX_DECODED_BYTES = 100 * 1024 * 1024;
/**
 * Bytes of the file pdf.js may lex per byte of the file, plus {@link READ_ALLOWANCE}. A sound PDF is lexed about
 * once (0.2x to 1.05x measured); a damaged one whose objects run into each other is re-read from every object's
 * start (600x on 20 KB), which is quadratic.
 */
const READ_PASSES = 4;
/** Lexed bytes allowed on top of {@link READ_PASSES}, so that small files are never cut short (1 MiB). */
const READ_ALLOWANCE = 1024 * 1024;
/** Images painted by Type3 glyphs above this many pixels are skipped by pdf.js (16 megapixels). */
const MAX_IMAGE_PIXELS = 16 * 1024 * 1024;

export interface PdfOptions {
  /**
   * Parse at most this many pages from the start. Left unset, the default applies and a cut says so in `warnings`.
   * @default 1000
   */
  maxPages?: number;
  /**
   * Decompressed bytes the parse may produce (content, fonts, character maps, the file's structure). Pages past
   * it are not parsed, with a warning; a PDF whose first page alone passes it fails with `SCRAPE_PDF_TOO_LARGE`.
   * @default 104857600 (100 MiB)
   */
  maxDecodedBytes?: number;
  /** Epoch ms after which no further page is started; the pages parsed by then are returned with a warning. */
  deadline?: number;
  /**
   * Told what the parse has read, as it reads it: the document's head before the first page, then each page, then
   * `done` once the pages stop. A caller that may stop the thread mid-page composes the pages told so far
   * (`cutPdf`).
   * @default undefined (nothing told)
   */
  onRead?: (read: PdfRead) => void;
}

/** What a PDF's parse knows before its first page: the document information, the page count, the outline. */
export interface PdfHead {
  metadata: Record<string, string>;
  totalPages: number;
  outline: OutlineIndex;
}

/** A page read by OCR (`@crawlkit/documents`' `ocrPdf`): its number, its lines, its text (for a page without lines). */
export interface OcrPageRead {
  page: number;
  lines: OcrLine[];
  text: string;
}

/** The end of a PDF's text pass as `onRead` is told it: its warnings, and whether its deadline cut it. */
export interface PdfTextPass {
  warnings: string[];
  timedOut: boolean;
}

/**
 * What `PdfOptions.onRead` is told: plain data, which crosses to another thread. After `done`, a parse that goes on
 * to OCR tells `ocr` (the pages it is to read by OCR, and the warnings so far), then each `ocrPage` it read.
 */
export type PdfRead =
  | { head: PdfHead }
  | { page: Line[] }
  | { done: PdfTextPass }
  | { ocr: { pages: number[]; warnings: string[] } }
  | { ocrPage: OcrPageRead };

/**
 * A page of plain text (an OCR engine's when it gave no line positions, see `ocrPagesToMarkdown`) as markdown: blank
 * lines separate blocks, a block's lines are trimmed and kept, empty ones dropped, words hyphenated across lines joined
 * (`joinHyphenated`). A PDF's text layer is read by `structure.ts` instead.
 */
export function pageToMarkdown(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((block) =>
      joinHyphenated(
        block
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean),
      ).join('\n'),
    )
    .filter(Boolean)
    .join('\n\n');
}

/**
 * The decode budget of the document being parsed. pdf.js has no size limit of its own (it inflates a whole stream into
 * one buffer), so the patched pdf.js worker this package ships (`pdfjs-worker.ts`) charges every decoded stream's
 * buffer growth here before allocating it, and throws once `used` passes `limit`. pdf.js swallows most errors inside a
 * page, so `exceeded` is what tells a cut page from an empty one. The same patch charges every token pdf.js lexes from
 * the file itself to `read`: once it passes `readLimit`, every later token throws, so a recovery scan that pdf.js keeps
 * retrying after swallowed errors stays linear.
 */
interface DecodeBudget {
  limit: number;
  used: number;
  exceeded: boolean;
  /** Bytes of the file (not of decoded streams) pdf.js's lexer may read; `read` counts them, `overread` is sticky. */
  readLimit: number;
  read: number;
  overread: boolean;
}
const BUDGET = Symbol.for('crawlkit.pdfDecodeBudget');
const slot = globalThis as { [BUDGET]?: DecodeBudget };

// The budget is per thread, so this thread parses one PDF at a time (each extraction worker has its own).
let turn: Promise<unknown> = Promise.resolve();

const kib = (bytes: number): string => `${Math.max(1, Math.round(bytes / 1024))} KB`;

function tooLarge(budget: DecodeBudget, size: number, cause?: unknown): ExtractorError {
  const options = cause !== undefined ? { cause } : undefined;
  if (budget.overread) {
    return new ExtractorError(
      'SCRAPE_PDF_PARSE_ERROR',
      `The PDF could not be parsed: its structure is damaged (objects that run into each other), and reading it ` +
        `took more than ${READ_PASSES} passes over its ${kib(size)} (the limit for a damaged PDF).`,
      options,
    );
  }
  return new ExtractorError(
    'SCRAPE_PDF_TOO_LARGE',
    `The PDF decompresses to more than ${sizeText(budget.limit)} before its first page can be read (the limit of ` +
      'decompressed PDF data), so it was not parsed.',
    options,
  );
}

function unguarded(): ExtractorError {
  return new ExtractorError(
    'SCRAPE_PDF_PARSE_ERROR',
    'The PDF was not parsed: the pdf.js in use is not the patched one shipped with @crawlkit/extractor, so its ' +
      'decompression budget would not hold (another pdf.js was loaded first in this thread).',
  );
}

/** The parts of pdf.js's document and page read here (pdf-parse's own reading flattens the text's layout). */
interface PdfPage {
  view: number[];
  getTextContent(): Promise<{ items: (TextItem | object)[]; styles: Record<string, TextStyle> }>;
  getAnnotations(): Promise<WidgetAnnotation[]>;
  cleanup(): void;
}
interface PdfDocument extends OutlineDocument {
  numPages: number;
  getMetadata(): Promise<{ info?: Record<string, unknown> }>;
  getPage(page: number): Promise<PdfPage>;
}
/** pdf-parse (pinned) loads the document, within the budgets of the patched worker, in its private `load`. */
interface Parser {
  load(): Promise<PdfDocument>;
}

/** A page's text, with its filled form fields' values (`form-fields.ts`), as lines in reading order (`layout.ts`). */
async function readPage(doc: PdfDocument, number: number): Promise<Line[]> {
  const page = await doc.getPage(number);
  try {
    const { items, styles } = await page.getTextContent();
    const [left = 0, , right = 612] = page.view;
    // a filled form's values are annotations, which the text layer leaves out
    const annotations = await page.getAnnotations();
    return pageLines(
      withFormFields(
        items.filter((item): item is TextItem => 'str' in item),
        annotations,
      ),
      styles,
      Math.min(left, right),
      Math.max(left, right),
    );
  } finally {
    page.cleanup();
  }
}

const timedOutWarning = (parsed: number, total: number): string =>
  `Only the first ${parsed} of ${total} PDF pages were parsed before the extraction time ran out.`;

/** The content of a PDF from its head and the lines of the pages parsed, in order. */
function composePdf(head: PdfHead, pages: Line[][], warnings: string[], timedOut: boolean): PdfContent {
  const { metadata, totalPages } = head;
  const body = bodyStyle(pages);
  const outline = underTitle(head.outline, pages, body);
  const pageHeadings = copyOutline(outline);
  const pageMarkdown = pages.map((lines, i) => linesToMarkdown(lines, body, i + 1, pageHeadings));
  // running headers and page numbers are found among the lines, before they are joined into paragraphs
  const keep = runningLineMask(pages.map((lines) => lines.map((line) => line.text)));
  const kept = keep ? pages.map((lines, i) => lines.filter((_, j) => keep[i]![j])) : pages;
  const headings = copyOutline(outline);
  const content: PdfContent = {
    markdown: joinPages(keep ? kept.map((lines, i) => linesToMarkdown(lines, body, i + 1, headings)) : pageMarkdown),
    numPages: pages.length,
    pageMarkdown,
    totalPages,
    metadata,
    warnings,
  };
  if (metadata.title) content.title = metadata.title;
  if (timedOut) content.timedOut = true;
  return content;
}

/**
 * The content of a PDF whose thread was stopped past its deadline, from what `onRead` was told before: the pages read,
 * with the warning a cut between pages gives. `done`: the text pass had ended (the thread was stopped composing its
 * pages, or in its OCR), as it told its end.
 */
export function cutPdf(head: PdfHead, pages: Line[][], done?: PdfTextPass): PdfContent {
  if (done) return composePdf(head, pages, done.warnings, done.timedOut);
  return composePdf(head, pages, [timedOutWarning(pages.length, head.totalPages)], true);
}

/** Extracts the text of a PDF (pdf-parse, on pdf.js) within a page cap, a decompressed-size cap and a deadline. */
export function extractPdf(data: Uint8Array, options: PdfOptions = {}): Promise<PdfContent> {
  const run = turn.then(() => parse(data, options));
  turn = run.catch(() => undefined);
  return run;
}

async function parse(data: Uint8Array, options: PdfOptions): Promise<PdfContent> {
  const maxPages = options.maxPages ?? DEFAULT_PDF_MAX_PAGES;
  const maxDecodedBytes = options.maxDecodedBytes ?? DEFAULT_PDF_MAX_DECODED_BYTES;
  const budget: DecodeBudget = {
    limit: maxDecodedBytes,
    used: 0,
    exceeded: false,
    readLimit: READ_PASSES * data.length + READ_ALLOWANCE,
    read: 0,
    overread: false,
  };
  const cut = () => budget.exceeded || budget.overread;
  // Loaded with the first PDF: pdf.js is large and most scrapes never see one.
  const { PDFParse } = await loadPdfParse();
  slot[BUDGET] = budget;
  const parser = new PDFParse({ data: new Uint8Array(data), isEvalSupported: false, maxImageSize: MAX_IMAGE_PIXELS });
  try {
    const doc = await (parser as unknown as Parser).load();
    const { info } = await doc.getMetadata();
    if (cut()) throw tooLarge(budget, data.length);
    // Reading the document lexes its file, which the patched worker counts: nothing counted means an unpatched pdf.js
    // parsed it (one loaded in this thread before ours), and its budgets would be silently gone.
    if (budget.read === 0) throw unguarded();
    const total = doc.numPages;
    const allowed = Math.min(maxPages, total);
    const head: PdfHead = {
      metadata: documentMetadata(info ?? {}),
      totalPages: total,
      outline: await readOutline(doc),
    };
    options.onRead?.({ head });
    const pages: Line[][] = [];
    const warnings: string[] = [];
    let parsed = 0;
    let timedOut = false;
    for (let page = 1; page <= allowed; page++) {
      if (page > 1 && options.deadline !== undefined && Date.now() > options.deadline) {
        warnings.push(timedOutWarning(parsed, total));
        timedOut = true;
        break;
      }
      const lines = await readPage(doc, page).catch((error: unknown) => {
        if (cut()) return undefined; // the page that passed a cap: dropped below
        throw error;
      });
      if (cut() || lines === undefined) {
        if (parsed === 0) throw tooLarge(budget, data.length);
        warnings.push(
          budget.overread
            ? `Only the first ${parsed} of ${total} PDF pages were parsed: the next page took the reading of the ` +
                `damaged file past ${READ_PASSES} passes over it.`
            : `Only the first ${parsed} of ${total} PDF pages were parsed: the next page took the decompressed PDF ` +
                `data past its ${sizeText(maxDecodedBytes)} limit.`,
        );
        break;
      }
      pages.push(lines);
      options.onRead?.({ page: lines });
      parsed++;
    }
    if (parsed === allowed && allowed < total && options.maxPages === undefined) {
      warnings.push(
        `Only the first ${parsed} of ${total} PDF pages were parsed (the default page cap); set parsers: ` +
          `[{ type: 'pdf', maxPages }] to parse up to ${PDF_MAX_PAGES_LIMIT}.`,
      );
    }
    // told before the pages are composed: a thread stopped while it composes them still has every page read
    options.onRead?.({ done: { warnings: [...warnings], timedOut } });
    return composePdf(head, pages, warnings, timedOut);
  } catch (error) {
    if (error instanceof ExtractorError) throw error;
    if (cut()) throw tooLarge(budget, data.length, error);
    // pdf.js's own words for it, "No password given", do not say the file is encrypted nor what to do; the code is
    // the one of every protected document, so that a pipeline routes them without reading the message.
    if ((error as Error).name === 'PasswordException') {
      throw new ExtractorError(
        'SCRAPE_DOCUMENT_ENCRYPTED',
        'The PDF is protected by a password (its content is encrypted), and crawlkit opens no protected PDF: ' +
          'save a copy without the password.',
        { cause: error },
      );
    }
    // pdf.js's "Invalid PDF structure" names neither the likely cause (a cut download) nor what to do.
    if ((error as Error).name === 'InvalidPDFException') {
      throw new ExtractorError(
        'SCRAPE_PDF_PARSE_ERROR',
        `The PDF could not be parsed: its structure is invalid (${(error as Error).message}), as in a file that is ` +
          `truncated (an interrupted download or upload of its ${kib(data.length)}) or not a PDF: fetch it again, ` +
          'or open and save it again in a PDF tool.',
        { cause: error },
      );
    }
    throw new ExtractorError('SCRAPE_PDF_PARSE_ERROR', `The PDF could not be parsed: ${(error as Error).message}`, {
      cause: error,
    });
  } finally {
    await parser.destroy().catch(() => undefined);
    delete slot[BUDGET];
  }
}
