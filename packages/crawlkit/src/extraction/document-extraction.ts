/**
 * Documents (Word, Excel, PowerPoint, OpenDocument, RTF, EPUB, CSV, TSV and, with the `image` parser, images read
 * by OCR): recognized on the main thread by signature, then by type (or the URL's file name) for text formats
 * (`pageKind`), and converted by `@crawlkit/documents` in the extraction worker that runs the page.
 */
import { convertDocument, documentFormat, isDocumentError } from '@crawlkit/documents';

import { CrawlkitError } from '../errors.js';
import type { Extraction, ExtractionRequest } from './extraction.js';
import { fileNameOf } from './file-name.js';

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The error of a conversion cut by the extraction budget. It names `extractionBudgetMs`: the request's `timeout`
 * bounds the whole page, but a conversion also stops at the budget, so raising `timeout` alone changes nothing.
 */
function budgetMessage(format: string, budgetMs: number): string {
  const what = format === 'image' ? 'reading the image by OCR' : `converting the ${format.toUpperCase()} document`;
  return (
    `${what[0]!.toUpperCase()}${what.slice(1)} took longer than the extraction budget (extractionBudgetMs: ` +
    `${budgetMs} ms); raise \`extractionBudgetMs\` (an engine option) for documents this large.`
  );
}

/**
 * The warning of a document (a PDF's pages, OCR'd pages, sheets, slides) that the extraction budget cut short, beside
 * the one saying what was left out: the option that gives it more time.
 */
export function budgetCutWarning(budgetMs: number | undefined): string {
  const budget = budgetMs !== undefined ? ` (extractionBudgetMs: ${budgetMs} ms)` : '';
  return `The extraction budget${budget} ran out before the whole document was read: raise \`extractionBudgetMs\` to read the rest.`;
}

/** A document's extraction: markdown, HTML when the format has it (else the markdown's paragraphs), metadata. */
export async function documentExtraction(request: ExtractionRequest, text: string | undefined): Promise<Extraction> {
  const { page, settings, budgetMs } = request;
  const bytes = page.body && page.undecodedText === undefined ? page.body : new TextEncoder().encode(text ?? '');
  const fileName = page.fileName ?? fileNameOf(page.url);
  const input = { bytes, contentType: page.contentType, ...(fileName !== undefined ? { fileName } : {}) };
  const format = documentFormat(input, { images: settings.ocrImages });
  if (format === undefined) {
    // an image without the `image` parser: an unsupported file, as before OCR
    throw new CrawlkitError(
      'SCRAPE_UNSUPPORTED_FILE_ERROR',
      `Scrape resulted in unsupported file: ${page.contentType || 'an image'} (add 'image' to parsers to read ` +
        'images by OCR)',
    );
  }
  try {
    const converted = await convertDocument(input, {
      html: settings.html || settings.rawHtml,
      images: settings.ocrImages,
      ...(budgetMs !== undefined ? { deadline: Date.now() + budgetMs } : {}),
    });
    const html =
      converted.html ??
      `<html><body>${converted.markdown
        .split(/\n{2,}/)
        .map((p) => `<p>${escapeHtml(p.trim())}</p>`)
        .join('')}</body></html>`;
    const extraction: Extraction = {
      markdown: converted.markdown,
      html,
      rawHtml: html,
      links: [],
      images: [],
      metadata: { ...converted.metadata },
      warnings: converted.timedOut ? [...converted.warnings, budgetCutWarning(budgetMs)] : converted.warnings,
    };
    // upstream's per-page rule (+1 credit per page past the first) where the document has pages
    if (converted.pages !== undefined) extraction.pdfPages = converted.pages;
    return extraction;
  } catch (error) {
    if (!isDocumentError(error)) throw error;
    const message =
      error.code === 'SCRAPE_DOCUMENT_TIMEOUT' && budgetMs !== undefined
        ? budgetMessage(format, budgetMs)
        : error.message;
    throw new CrawlkitError(error.code, message, { cause: error });
  }
}
