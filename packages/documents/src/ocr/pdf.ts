/**
 * OCR of PDF pages (the `pdf` parser's `mode`): `ocr` reads every parsed page by OCR, `auto` only the pages without
 * a text layer (scanned pages), keeping the text layer of the others. A page is rendered by pdf.js (pdf-parse's
 * screenshot, on @napi-rs/canvas) at twice its size and read by Tesseract, within a cap of pages and a deadline. The
 * lines Tesseract finds are joined into paragraphs by the rules of the text layer (`ocrPagesToMarkdown`), and a
 * paragraph running on to the next page is joined by `joinPages`, as a text layer's is.
 */
import {
  cutPdf,
  dropRunningLines,
  extractPdf,
  joinPages,
  loadPdfParse,
  type OcrPageRead,
  ocrPagesToMarkdown,
  type PdfHead,
  type PdfLine,
  pageToMarkdown,
  type PdfContent,
  type PdfOptions,
  type PdfTextPass,
} from '@crawlkit/extractor';

import { DocumentError, isDocumentError } from '../errors.js';
import { OCR_DATA_INSTALL, recognize } from './engine.js';

/** Pages OCR'd per PDF when `maxOcrPages` is not given. */
export const DEFAULT_OCR_MAX_PAGES = 20;
/** Rendering scale: 144 dpi for a page of 72 dpi units, where Tesseract reads body text well. */
const SCALE = 2;

export interface OcrPdfOptions extends PdfOptions {
  /** `ocr`: every page; `auto`: the pages without a text layer. */
  mode: 'ocr' | 'auto';
  /**
   * Pages read by OCR; past it the rest keep their text layer (empty for a scanned page), with a warning.
   * @default 20
   */
  maxOcrPages?: number;
}

export interface OcrPdfResult extends PdfContent {
  /** Pages read by OCR. */
  ocrPages: number;
}

export async function ocrPdf(data: Uint8Array, options: OcrPdfOptions): Promise<OcrPdfResult> {
  const { mode, maxOcrPages = DEFAULT_OCR_MAX_PAGES, ...pdfOptions } = options;
  const text = await extractPdf(data, pdfOptions);
  const { pages: chosen, warnings } = ocrPlan(text, mode, maxOcrPages);
  if (chosen.length === 0) return { ...text, ocrPages: 0 };
  options.onRead?.({ ocr: { pages: chosen, warnings } });
  const { PDFParse } = await loadPdfParse();
  // a copy: pdf.js takes over the buffer it parses
  const parser = new PDFParse({ data: new Uint8Array(data), isEvalSupported: false });
  /** The pages read by OCR, with their lines: made into paragraphs together, at the end, at the one scale. */
  const recognizedPages: OcrPageRead[] = [];
  let timedOut = text.timedOut === true;
  try {
    for (const page of chosen) {
      if (options.deadline !== undefined && Date.now() > options.deadline) {
        timedOut = true;
        break;
      }
      const shot = await parser.getScreenshot({
        partial: [page],
        scale: SCALE,
        imageBuffer: true,
        imageDataUrl: false,
      });
      const image = shot.pages[0]?.data;
      if (!image) continue;
      const recognized = await recognize(image, options.deadline);
      if (recognized === undefined) {
        timedOut = true;
        break;
      }
      const read: OcrPageRead = { page, ...recognized };
      recognizedPages.push(read);
      options.onRead?.({ ocrPage: read });
    }
  } catch (error) {
    // `auto` asked for OCR only where a page has no text layer: the others keep theirs, and the warning says how to
    // read the rest
    if (isDocumentError(error) && error.code === 'SCRAPE_OCR_DATA_MISSING' && mode === 'auto') {
      warnings.push(ocrSkippedWarning(chosen.length - recognizedPages.length));
      const read = recognizedPages.map(({ page }) => page);
      return withOcrPages({ ...text, warnings }, read, recognizedPages, timedOut);
    }
    // by its brand: this module may be bundled (crawlkit's extraction worker) apart from the engine's `DocumentError`
    if (isDocumentError(error)) throw error;
    throw new DocumentError(
      'SCRAPE_OCR_FAILED',
      `A PDF page could not be rendered for OCR: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  } finally {
    await parser.destroy().catch(() => undefined);
  }
  return withOcrPages({ ...text, warnings }, chosen, recognizedPages, timedOut);
}

const ocrSkippedWarning = (pages: number): string =>
  `${pages === 1 ? '1 PDF page has' : `${pages} PDF pages have`} no text layer and ${pages === 1 ? 'was' : 'were'} ` +
  "not read by OCR: OCR's English language data, the @tesseract.js-data/eng package, is not installed. To read " +
  `scanned pages, install it beside crawlkit: ${OCR_DATA_INSTALL}`;

/** The pages a PDF's parse is to read by OCR, and its warnings so far (`PdfRead`'s `ocr`). */
interface OcrPlan {
  pages: number[];
  warnings: string[];
}

/**
 * What a PDF's parse had told (`PdfOptions.onRead`) when its thread was stopped past the deadline: its head and the
 * pages it finished; `done`, the end of its text pass; `ocr`, the pages it went on to read by OCR and those it read.
 */
export interface PdfCutRead {
  head: PdfHead;
  pages: PdfLine[][];
  done?: PdfTextPass;
  ocr?: OcrPlan & { read: OcrPageRead[] };
}

/**
 * The content of a PDF whose thread was stopped past its deadline, from what its parse had told (`read`), as the
 * parse in `mode` would have answered it with the time it had: the pages read; stopped after its text pass but before
 * OCR began (composing the pages, choosing those to read), the pages `mode` reads by OCR said unread for the time.
 */
export function cutPdfRead(
  { head, pages, done, ocr }: PdfCutRead,
  mode: OcrPdfOptions['mode'] | 'fast',
  maxOcrPages = DEFAULT_OCR_MAX_PAGES,
): PdfContent & { ocrPages?: number } {
  if (ocr) return cutOcrPdf(head, pages, ocr, ocr.read);
  const text = cutPdf(head, pages, done);
  if (!done || mode === 'fast') return text;
  const plan = ocrPlan(text, mode, maxOcrPages);
  if (plan.pages.length === 0) return { ...text, ocrPages: 0 };
  return withOcrPages({ ...text, warnings: plan.warnings }, plan.pages, [], true);
}

/**
 * The content of a PDF whose thread was stopped in its OCR past the deadline (a page rendered in one run, where the
 * deadline cannot be checked), from what `onRead` was told before: the text layer of every page, and the pages read by
 * OCR in place of theirs, with the warning of an OCR cut by its time.
 */
export function cutOcrPdf(
  head: PdfHead,
  pages: PdfLine[][],
  ocr: { pages: number[]; warnings: string[] },
  read: OcrPageRead[],
): OcrPdfResult {
  return withOcrPages(cutPdf(head, pages, { warnings: ocr.warnings, timedOut: false }), ocr.pages, read, true);
}

/** The pages of a PDF's text pass that `mode` reads by OCR, within the cap, and its warnings with the cap's. */
function ocrPlan(text: PdfContent, mode: OcrPdfOptions['mode'], maxOcrPages: number): OcrPlan {
  const wanted = text.pageMarkdown
    .map((markdown, index) => ({ markdown, page: index + 1 }))
    .filter(({ markdown }) => mode === 'ocr' || markdown.trim() === '')
    .map(({ page }) => page);
  const warnings = [...text.warnings];
  const pages = wanted.slice(0, maxOcrPages);
  if (wanted.length > pages.length) {
    warnings.push(
      `Only ${pages.length} of the ${wanted.length} PDF pages to read by OCR were read (the OCR page cap); raise ` +
        '`maxOcrPages` to read more.',
    );
  }
  return { pages, warnings };
}

/** `text` with the pages of `chosen` read by OCR (`recognized`) in place of their text layer. */
function withOcrPages(text: PdfContent, chosen: number[], recognized: OcrPageRead[], timedOut: boolean): OcrPdfResult {
  const pages = [...text.pageMarkdown];
  const warnings = [...text.warnings];
  const read = recognized.length;
  const positioned = ocrPagesToMarkdown(recognized.map(({ lines }) => lines));
  recognized.forEach(({ page, lines, text }, i) => {
    const markdown = lines.length ? positioned[i]! : pageToMarkdown(text);
    if (markdown) pages[page - 1] = markdown;
  });
  if (read < chosen.length) {
    warnings.push(`Only ${read} of ${chosen.length} PDF pages were read by OCR before the time ran out.`);
  }
  const markdown = joinPages(dropRunningLines(pages));
  return { ...text, pageMarkdown: pages, markdown, warnings, ocrPages: read, ...(timedOut ? { timedOut } : {}) };
}
