/**
 * OCR of PDF pages (the `pdf` parser's `mode`): `ocr` reads every parsed page by OCR, `auto` only the pages without
 * a text layer (scanned pages), keeping the text layer of the others. A page is rendered by pdf.js (pdf-parse's
 * screenshot, on @napi-rs/canvas) at twice its size and read by Tesseract, within a cap of pages and a deadline. The
 * lines Tesseract finds are joined into paragraphs by the rules of the text layer (`ocrPagesToMarkdown`), and a
 * paragraph running on to the next page is joined by `joinPages`, as a text layer's is.
 */
import {
  dropRunningLines,
  extractPdf,
  joinPages,
  loadPdfParse,
  type OcrLine,
  ocrPagesToMarkdown,
  pageToMarkdown,
  type PdfContent,
  type PdfOptions,
} from '@crawlkit/extractor';

import { DocumentError } from '../errors.js';
import { recognize } from './engine.js';

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
  const wanted = text.pageMarkdown
    .map((markdown, index) => ({ markdown, page: index + 1 }))
    .filter(({ markdown }) => mode === 'ocr' || markdown.trim() === '')
    .map(({ page }) => page);
  if (wanted.length === 0) return { ...text, ocrPages: 0 };
  const warnings = [...text.warnings];
  const pages = [...text.pageMarkdown];
  const chosen = wanted.slice(0, maxOcrPages);
  if (wanted.length > chosen.length) {
    warnings.push(
      `Only ${chosen.length} of the ${wanted.length} PDF pages to read by OCR were read (the OCR page cap); raise ` +
        '`maxOcrPages` to read more.',
    );
  }
  const { PDFParse } = await loadPdfParse();
  // a copy: pdf.js takes over the buffer it parses
  const parser = new PDFParse({ data: new Uint8Array(data), isEvalSupported: false });
  /** The pages read by OCR, with their lines: made into paragraphs together, at the end, at the one scale. */
  const recognizedPages: { page: number; lines: OcrLine[]; text: string }[] = [];
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
      recognizedPages.push({ page, ...recognized });
    }
  } catch (error) {
    if (error instanceof DocumentError) throw error;
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
  const read = recognizedPages.length;
  const positioned = ocrPagesToMarkdown(recognizedPages.map(({ lines }) => lines));
  recognizedPages.forEach(({ page, lines, text }, i) => {
    const markdown = lines.length ? positioned[i]! : pageToMarkdown(text);
    if (markdown) pages[page - 1] = markdown;
  });
  if (read < chosen.length) {
    warnings.push(`Only ${read} of ${chosen.length} PDF pages were read by OCR before the time ran out.`);
  }
  const markdown = joinPages(dropRunningLines(pages));
  return { ...text, pageMarkdown: pages, markdown, warnings, ocrPages: read, ...(timedOut ? { timedOut } : {}) };
}
