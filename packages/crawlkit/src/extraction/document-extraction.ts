/**
 * Documents (Word, Excel, PowerPoint, OpenDocument, RTF, EPUB, CSV, TSV and, with the `image` parser, images read
 * by OCR): recognized on the main thread by signature, then by type (or the URL's file name) for text formats
 * (`pageKind`), and converted by `@crawlkit/documents` in the extraction worker that runs the page.
 */
import { convertDocument, documentFormat, isDocumentError } from '@crawlkit/documents';

import { CrawlkitError } from '../errors.js';
import type { Extraction, ExtractionRequest } from './extraction.js';
import { fileNameOf } from './page-kind.js';

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A document's extraction: markdown, HTML when the format has it (else the markdown's paragraphs), metadata. */
export async function documentExtraction(request: ExtractionRequest, text: string | undefined): Promise<Extraction> {
  const { page, settings, budgetMs } = request;
  const bytes = page.body && page.undecodedText === undefined ? page.body : new TextEncoder().encode(text ?? '');
  const fileName = fileNameOf(page.url);
  const input = { bytes, contentType: page.contentType, ...(fileName !== undefined ? { fileName } : {}) };
  if (documentFormat(input, { images: settings.ocrImages }) === undefined) {
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
      warnings: converted.warnings,
    };
    // upstream's per-page rule (+1 credit per page past the first) where the document has pages
    if (converted.pages !== undefined) extraction.pdfPages = converted.pages;
    return extraction;
  } catch (error) {
    if (!isDocumentError(error)) throw error;
    throw new CrawlkitError(error.code, error.message, { cause: error });
  }
}
