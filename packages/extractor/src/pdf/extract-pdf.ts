import { ExtractorError } from '../errors.js';

export interface PdfContent {
  /** The text of the parsed pages as markdown (one paragraph per text block, pages separated by a rule). */
  markdown: string;
  /** Pages parsed. */
  numPages: number;
  /** Pages in the document (more than `numPages` when `maxPages` cut it). */
  totalPages: number;
  title?: string;
  /** Document information (author, subject, creator, ...), string values only. */
  metadata: Record<string, string>;
}

export interface PdfOptions {
  /** Parse at most this many pages from the start. */
  maxPages?: number;
}

function pageToMarkdown(text: string): string {
  // pdf.js gives one line per text run; blank lines separate blocks. Join wrapped lines into paragraphs.
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((block) =>
      block
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
        .join('\n'),
    )
    .filter(Boolean)
    .join('\n\n');
}

/** Extracts the text of a PDF (pdf-parse, on pdf.js). */
export async function extractPdf(data: Uint8Array, options: PdfOptions = {}): Promise<PdfContent> {
  // Loaded with the first PDF: pdf.js is large and most scrapes never see one.
  const { PDFParse } = await import('pdf-parse');
  const parser = new PDFParse({ data: new Uint8Array(data) });
  try {
    const info = await parser.getInfo();
    const total = info.total;
    const text = await parser.getText(
      options.maxPages !== undefined ? { first: Math.min(options.maxPages, total) } : {},
    );
    const pages = text.pages.map((p) => pageToMarkdown(p.text)).filter(Boolean);
    const metadata: Record<string, string> = {};
    const raw = (info.info ?? {}) as Record<string, unknown>;
    for (const [key, value] of Object.entries(raw)) {
      if (typeof value === 'string' && value.trim()) metadata[key] = value.trim();
    }
    const title = metadata.Title;
    const content: PdfContent = {
      markdown: pages.join('\n\n'),
      numPages: text.pages.length,
      totalPages: total,
      metadata,
    };
    if (title) content.title = title;
    return content;
  } catch (error) {
    throw new ExtractorError('SCRAPE_PDF_PARSE_ERROR', `The PDF could not be parsed: ${(error as Error).message}`, {
      cause: error,
    });
  } finally {
    await parser.destroy().catch(() => undefined);
  }
}
