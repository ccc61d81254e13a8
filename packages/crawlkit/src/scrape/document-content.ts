/**
 * Documents (Word, Excel, PowerPoint, OpenDocument, RTF, EPUB, CSV, TSV and, with the `image` parser, images read
 * by OCR): recognized by signature, then by type for text formats, and converted by `@crawlkit/documents` in the
 * extraction worker that runs the page.
 */
import { convertDocument, documentFormat, isDocumentError, type DocumentFormat } from '@crawlkit/documents';

import { CrawlkitError } from '../errors.js';
import type { BuiltContent, ContentSettings, ContentTask, PageInput } from './content.js';

function bytesOf(page: PageInput): Uint8Array {
  return page.body ?? new TextEncoder().encode(page.text ?? '');
}

/** The document format of a page, or `undefined` when it is not a document (HTML, PDF, JSON, ...). */
export function pageDocumentFormat(page: PageInput, settings: ContentSettings): DocumentFormat | 'xls' | undefined {
  return documentFormat({ bytes: bytesOf(page), contentType: page.contentType }, { images: settings.ocrImages });
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A page's content from its document: markdown, HTML when the format has it (else the markdown's paragraphs). */
export async function documentContent(task: ContentTask, fileName?: string): Promise<BuiltContent> {
  const { page, settings, budgetMs } = task;
  try {
    const converted = await convertDocument(
      { bytes: bytesOf(page), contentType: page.contentType, ...(fileName !== undefined ? { fileName } : {}) },
      {
        html: settings.html || settings.rawHtml,
        images: settings.ocrImages,
        ...(budgetMs !== undefined ? { deadline: Date.now() + budgetMs } : {}),
      },
    );
    const html =
      converted.html ??
      `<html><body>${converted.markdown
        .split(/\n{2,}/)
        .map((p) => `<p>${escapeHtml(p.trim())}</p>`)
        .join('')}</body></html>`;
    const content: BuiltContent = {
      markdown: converted.markdown,
      html,
      rawHtml: html,
      links: [],
      images: [],
      metadata: { ...converted.metadata },
      warnings: converted.warnings,
    };
    // upstream's per-page rule (+1 credit per page past the first) where the document has pages
    if (converted.pages !== undefined) content.pdfPages = converted.pages;
    return content;
  } catch (error) {
    if (isDocumentError(error)) throw new CrawlkitError(error.code, error.message, { cause: error });
    throw error;
  }
}
