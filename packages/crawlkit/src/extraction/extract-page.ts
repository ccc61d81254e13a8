/**
 * A page's extraction by its kind: the CPU-bound part of a scrape, run in a worker thread of the extraction pool
 * (on the calling thread with `workers.size: 0`).
 */
import {
  explainPage,
  extractPage,
  extractPdf,
  htmlToPlainText,
  isMarkdownBudgetError,
  pdfMarkdownToHtml,
  type ExtractedPage,
  type ExtractPageOptions,
  type PdfContent,
} from '@crawlkit/extractor';
import { ocrPdf } from '@crawlkit/documents';
import { countTerms } from '@crawlkit/store/search-terms';
import { searchTextDigest } from '@crawlkit/store/text-digest';
import { decodeText } from '@crawlkit/fetcher/analysis';

import { canonicalFoldHash, contentHash } from '../changes/content-hash.js';
import { CrawlkitError } from '../errors.js';
import { clientRenderedPage } from './client-rendered.js';
import { budgetCutWarning, documentExtraction } from './document-extraction.js';
import { emptyPdfWarning } from './empty-pdf.js';
import { markdownText } from '../search/markdown-text.js';
import { searchHead } from '../search/search-head.js';
import { pdfReadReporter } from './pdf-progress.js';
import type { Extraction, ExtractionInput, ExtractionRequest, ExtractionSettings, PdfMode } from './extraction.js';

type TextInput = Pick<ExtractionInput, 'text' | 'charset' | 'body' | 'undecodedText' | 'contentType'>;

/**
 * The page's text and its encoding: as fetched, or decoded from its bytes here (in a worker thread, when it was left
 * undecoded).
 */
export function inputDocument(page: TextInput): { text: string; charset?: string } | undefined {
  if (page.text !== undefined || !page.undecodedText || !page.body) {
    if (page.text === undefined) return undefined;
    return page.charset !== undefined ? { text: page.text, charset: page.charset } : { text: page.text };
  }
  const { declaredCharset, contentLanguage } = page.undecodedText;
  return decodeText(page.body, page.contentType, declaredCharset, contentLanguage);
}

/** The page's text (`inputDocument`'s). */
export function inputText(page: TextInput): string | undefined {
  return inputDocument(page)?.text;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function textDocument(text: string, markdown: string, settings: ExtractionSettings): Extraction {
  const html = `<html><body><pre>${escapeHtml(text)}</pre></body></html>`;
  return {
    markdown: settings.markdown ? markdown : undefined,
    html: settings.html ? html : undefined,
    rawHtml: text,
    links: [],
    images: [],
    metadata: {},
    warnings: [],
  };
}

function paragraphsToHtml(markdown: string): string {
  const paragraphs = markdown
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escapeHtml(p)}</p>`);
  return `<html><body>${paragraphs.join('')}</body></html>`;
}

async function pdfExtraction({ page, settings, budgetMs }: ExtractionRequest): Promise<Extraction> {
  const body = page.body ?? new TextEncoder().encode(page.text ?? '');
  if (!settings.pdf) {
    // PDF parsing is off: the document is the PDF itself, base64-encoded (reference §6).
    const base64 = Buffer.from(body).toString('base64');
    return { markdown: base64, html: base64, rawHtml: base64, links: [], images: [], metadata: {}, warnings: [] };
  }
  // the extractor's caps apply: pages (maxPages, else its default), decompressed bytes, and the extraction budget
  // checked between pages
  const { mode = 'auto', ...pdfOptions } = settings.pdf;
  const onRead = pdfReadReporter();
  const limits = {
    ...pdfOptions,
    ...(budgetMs !== undefined ? { deadline: Date.now() + budgetMs } : {}),
    ...(onRead ? { onRead } : {}),
  };
  // `auto` reads by OCR only the pages without a text layer: a PDF that has one costs what it did without OCR
  const pdf = mode === 'fast' ? await extractPdf(body, limits) : await ocrPdf(body, { ...limits, mode });
  return pdfModeExtraction(pdf, mode, budgetMs);
}

/** A PDF's extraction from its content as read in `mode`, with the warning of a PDF that gave no text. */
export function pdfModeExtraction(
  pdf: PdfContent & { ocrPages?: number },
  mode: PdfMode,
  budgetMs: number | undefined,
): Extraction {
  const empty = emptyPdfWarning(pdf, mode);
  return pdfContentExtraction(empty ? { ...pdf, warnings: [...pdf.warnings, empty] } : pdf, budgetMs);
}

/** A PDF's extraction from its content (`budgetMs`, the budget a cut content's warning names). */
export function pdfContentExtraction(pdf: PdfContent, budgetMs: number | undefined): Extraction {
  const html = pdfMarkdownToHtml(pdf.markdown);
  const metadata: Record<string, unknown> = { ...pdf.metadata, numPages: pdf.numPages };
  if (pdf.totalPages !== pdf.numPages) metadata.totalPages = pdf.totalPages;
  if (pdf.title) metadata.title = pdf.title;
  return {
    markdown: pdf.markdown,
    html,
    rawHtml: html,
    links: [],
    images: [],
    metadata,
    warnings: pdf.timedOut ? [...pdf.warnings, budgetCutWarning(budgetMs)] : pdf.warnings,
    pdfPages: pdf.numPages,
  };
}

/** The warning of a page whose extraction was cut by `extractionBudgetMs`. */
export function budgetWarning(budgetMs: number | undefined): string {
  const budget = budgetMs !== undefined ? ` (extractionBudgetMs: ${budgetMs} ms)` : '';
  return (
    `Extraction of this page took longer than its budget${budget}: markdown and html hold its plain text, ` +
    'without links, images or metadata beyond the title. Raise `extractionBudgetMs` for pages this large.'
  );
}

/**
 * The plain-text rendering of an HTML page, the fallback when its extraction is cut: linear in the page, built
 * without a DOM (`htmlToPlainText`), capped in size.
 */
export function plainTextExtraction(request: ExtractionRequest): Extraction {
  const text = inputText(request.page) ?? '';
  const plain = htmlToPlainText(text);
  const warnings = [budgetWarning(request.budgetMs)];
  if (plain.truncated) warnings.push(`The plain text was cut at ${plain.text.length} characters.`);
  return {
    markdown: request.settings.markdown ? plain.text : undefined,
    html: request.settings.html ? paragraphsToHtml(plain.text) : undefined,
    rawHtml: text,
    links: [],
    images: [],
    metadata: plain.title ? { title: plain.title } : {},
    warnings,
    cut: true,
  };
}

function htmlExtraction(request: ExtractionRequest, text: string, charset: string | undefined): Extraction {
  const { page, settings } = request;
  const options: ExtractPageOptions = {
    url: page.url,
    ...(charset !== undefined ? { encoding: charset } : {}),
    ...(page.contentLanguage !== undefined ? { contentLanguage: page.contentLanguage } : {}),
    ...contentOptions(settings),
    removeBase64Images: settings.removeBase64Images,
    ...(settings.markdownRawHtml ? { markdownRawHtml: true } : {}),
    ...(settings.markdownCaptions ? { markdownCaptions: true } : {}),
    ...(settings.markdownEmbeds ? { markdownEmbeds: true } : {}),
    formats: {
      markdown: settings.markdown,
      html: settings.html,
      links: settings.links,
      images: settings.images,
      metadata: true,
      discoveryLinks: settings.collectLinks,
      attributes: settings.attributes,
    },
    ...(request.budgetMs !== undefined ? { deadline: Date.now() + request.budgetMs } : {}),
  };
  let extracted: ExtractedPage;
  try {
    extracted = extractPage(text, options);
    if (page.clientRendered) {
      extracted = clientRenderedPage(extracted, text, options, { ...page, clientRendered: page.clientRendered });
    }
  } catch (error) {
    if (isMarkdownBudgetError(error)) return plainTextExtraction(request);
    throw error;
  }
  return {
    markdown: extracted.markdown,
    html: extracted.html,
    rawHtml: text,
    links: extracted.links,
    images: extracted.images,
    metadata: extracted.metadata ?? {},
    warnings: extracted.warnings,
    ...(extracted.discoveryLinks ? { discoveredLinks: extracted.discoveryLinks } : {}),
    ...(extracted.attributes ? { attributes: extracted.attributes } : {}),
    ...(extracted.canonical ? { canonical: extracted.canonical } : {}),
    ...(settings.explain ? { explained: explainPage(text, { url: page.url, ...contentOptions(settings) }) } : {}),
  };
}

/** The content options of `extractPage` and `explainPage`. */
function contentOptions(
  settings: ExtractionSettings,
): Pick<ExtractPageOptions, 'onlyMainContent' | 'includeTags' | 'excludeTags'> {
  return {
    onlyMainContent: settings.onlyMainContent,
    ...(settings.includeTags ? { includeTags: settings.includeTags } : {}),
    ...(settings.excludeTags ? { excludeTags: settings.excludeTags } : {}),
  };
}

/**
 * Turns a fetched page into the extraction the formats read, by its kind. An HTML page whose markdown conversion
 * passes the request's budget comes back as its plain text (`cut`), with a warning. With `settings.searchText`, the
 * text the search index keeps comes too; with `settings.hashContent`, the main content's hashes (here, off the
 * thread that writes the store and feeds the pool).
 */
export async function extractPageInput(request: ExtractionRequest): Promise<Extraction> {
  const extraction = await extractByKind(request);
  if (request.settings.hashContent && extraction.markdown !== undefined) {
    extraction.contentHash = contentHash(extraction.markdown);
    const fold = canonicalFoldHash(extraction.markdown, extraction.canonical);
    if (fold !== undefined) extraction.foldHash = fold;
  }
  if (request.settings.searchText) {
    extraction.searchText = markdownText(extraction.markdown ?? '');
    extraction.searchTextDigest = searchTextDigest(extraction.searchText);
    if (request.settings.searchTerms) {
      const head = searchHead(extraction.metadata);
      extraction.searchTerms = { ...head, ...countTerms({ url: '', ...head, text: extraction.searchText }) };
    }
  }
  return extraction;
}

async function extractByKind(request: ExtractionRequest): Promise<Extraction> {
  const { page, settings } = request;
  if (page.kind === 'pdf') return pdfExtraction(request);
  if (page.kind === 'document') return documentExtraction(request, inputText(page));
  const decoded = page.kind === 'unsupported' ? undefined : inputDocument(page);
  if (decoded === undefined) {
    throw new CrawlkitError(
      'SCRAPE_UNSUPPORTED_FILE_ERROR',
      `Scrape resulted in unsupported file: ${page.contentType || 'binary content'}`,
    );
  }
  const { text, charset } = decoded;
  switch (page.kind) {
    case 'json':
      return textDocument(text, '```json\n' + text + '\n```', settings);
    case 'xml':
      return textDocument(text, '```xml\n' + text + '\n```', settings);
    case 'text':
      return textDocument(text, text, settings);
    default:
      return htmlExtraction(request, text, charset);
  }
}
