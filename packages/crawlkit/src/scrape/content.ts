import {
  extractPage,
  extractPdf,
  htmlToPlainText,
  isMarkdownBudgetError,
  type AttributeSelector,
  type AttributeValues,
  type ExtractedPage,
  type ExtractPageOptions,
} from '@crawlkit/extractor';

import { decodeText, type UndecodedText } from '@crawlkit/fetcher/analysis';

import { CrawlkitError } from '../errors.js';
import { clientRenderedPage } from './client-rendered.js';
import type { Format } from '../v2/formats.js';
import type { ScrapeOptions } from '../v2/scrape-options.js';
import type { ActionResults } from '../v2/types.js';

/** What a fetch produced, in the form the page cache keeps. */
export interface FetchedContent {
  url: string;
  status: number;
  contentType: string;
  headers: Record<string, string>;
  charset?: string;
  /** Decoded text of textual content. */
  text?: string;
  /** Raw bytes of binary content (PDF), or of text not decoded yet (`undecodedText`). */
  body?: Uint8Array;
  /** Set when `body` is text left undecoded by the fetch, decoded where it is extracted (see `pageText`). */
  undecodedText?: UndecodedText;
  screenshot?: string;
  actions?: ActionResults;
  engine: 'http' | 'browser';
  engineReason?: string;
  /** The render judge's reason, for a page served over HTTP although it looks client-rendered. */
  clientRendered?: string;
  proxyUsed: 'basic' | 'stealth';
  /** The fetch's notes for the document's `warning` (a cut screenshot). */
  warnings?: string[];
}

export type ContentOptions = Pick<
  ScrapeOptions,
  'formats' | 'onlyMainContent' | 'includeTags' | 'excludeTags' | 'removeBase64Images' | 'parsers'
> & {
  /** Also collect every link of the whole page (crawl discovery). */
  collectLinks?: boolean;
};

/** What extraction reads of a fetched page: plain data, so that it can be sent to a worker thread. */
export type PageInput = Pick<
  FetchedContent,
  'url' | 'contentType' | 'text' | 'body' | 'undecodedText' | 'clientRendered' | 'engineReason'
>;

/** The page's text: as fetched, or decoded from its bytes here (in a worker thread, when it was left undecoded). */
export function pageText(page: Pick<PageInput, 'text' | 'body' | 'undecodedText' | 'contentType'>): string | undefined {
  if (page.text !== undefined || !page.undecodedText || !page.body) return page.text;
  return decodeText(page.body, page.contentType, page.undecodedText.declaredCharset).text;
}

/**
 * The content options as plain data (formats reduced to what extraction computes): what a worker gets, and the
 * memo's fingerprint of a request's content (two requests with the same settings get the same content).
 */
export interface ContentSettings {
  markdown: boolean;
  html: boolean;
  /** Whether the page's own text is sent back (`rawHtml`): it is as large as the page. */
  rawHtml: boolean;
  links: boolean;
  images: boolean;
  onlyMainContent: boolean;
  includeTags?: string[];
  excludeTags?: string[];
  removeBase64Images: boolean;
  /** PDF parsing: `false` returns the file as base64. */
  pdf: false | { maxPages?: number };
  collectLinks: boolean;
  /** The `attributes` format's selectors (empty when it was not asked for). */
  attributes: AttributeSelector[];
}

/** One page's extraction, as sent to a worker. */
export interface ContentTask {
  page: PageInput;
  settings: ContentSettings;
  /**
   * Time extraction may take from its start, in milliseconds; past it the page's plain text is returned instead
   * (with a warning).
   */
  budgetMs?: number;
}

/** The content-derived part of a document. */
export interface BuiltContent {
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  images?: string[];
  /** Page-derived metadata (meta tags, title, ...). */
  metadata: Record<string, unknown>;
  warnings: string[];
  /** PDF pages parsed (absent when the content is not a parsed PDF). */
  pdfPages?: number;
  /** Every link of the whole page, when `collectLinks` was asked. */
  discoveredLinks?: string[];
  /** The `attributes` format's values (HTML pages only). */
  attributes?: AttributeValues[];
  /** The page's `rel=canonical` URL, absolute, when `collectLinks` was asked (crawl de-duplication). */
  canonical?: string;
  /** Set when the extraction budget cut the full extraction: the content is the page's plain text. */
  cut?: true;
}

const has = (formats: readonly Format[], ...types: Format['type'][]) => formats.some((f) => types.includes(f.type));

/** The selectors of the `attributes` format, empty when it was not asked for. */
export function attributeSelectors(formats: readonly Format[]): AttributeSelector[] {
  return formats.flatMap((f) => (f.type === 'attributes' ? f.selectors : []));
}

/** Markdown is computed whenever a format needs it (reference §4), and returned only when asked for. */
export function needsMarkdown(formats: readonly Format[]): boolean {
  return has(formats, 'markdown', 'summary', 'json', 'changeTracking', 'highlights', 'question', 'query');
}

/** The plain-data form of `options`. */
export function contentSettings(options: ContentOptions): ContentSettings {
  const formats = options.formats;
  const pdf = options.parsers.find((p) => p.type === 'pdf');
  const settings: ContentSettings = {
    markdown: needsMarkdown(formats),
    html: has(formats, 'html'),
    rawHtml: has(formats, 'rawHtml'),
    links: has(formats, 'links'),
    images: has(formats, 'images'),
    onlyMainContent: options.onlyMainContent,
    removeBase64Images: options.removeBase64Images,
    pdf: pdf ? (pdf.maxPages !== undefined ? { maxPages: pdf.maxPages } : {}) : false,
    collectLinks: options.collectLinks === true,
    attributes: attributeSelectors(formats),
  };
  if (options.includeTags) settings.includeTags = options.includeTags;
  if (options.excludeTags) settings.excludeTags = options.excludeTags;
  return settings;
}

/** The extraction task of a fetched page. */
export function contentTask(fetched: FetchedContent, options: ContentOptions, budgetMs?: number): ContentTask {
  const page: PageInput = { url: fetched.url, contentType: fetched.contentType };
  if (fetched.text !== undefined) page.text = fetched.text;
  if (fetched.body !== undefined) page.body = fetched.body;
  if (fetched.undecodedText !== undefined) page.undecodedText = fetched.undecodedText;
  if (fetched.clientRendered !== undefined) page.clientRendered = fetched.clientRendered;
  if (fetched.engineReason !== undefined) page.engineReason = fetched.engineReason;
  return { page, settings: contentSettings(options), ...(budgetMs !== undefined ? { budgetMs } : {}) };
}

function isPdf(page: PageInput): boolean {
  if (page.undecodedText) return false;
  if (page.contentType === 'application/pdf') return true;
  const b = page.body;
  return b !== undefined && b.length > 4 && b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46;
}

function isHtml(type: string): boolean {
  return type === 'text/html' || type === 'application/xhtml+xml' || type === '';
}

function isJson(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json') || type === 'text/json';
}

function isXml(type: string): boolean {
  return type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function textDocument(text: string, markdown: string, settings: ContentSettings): BuiltContent {
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

async function pdfContent({ page, settings, budgetMs }: ContentTask): Promise<BuiltContent> {
  const body = page.body ?? new TextEncoder().encode(page.text ?? '');
  if (!settings.pdf) {
    // PDF parsing is off: the document is the PDF itself, base64-encoded (reference §6).
    const base64 = Buffer.from(body).toString('base64');
    return { markdown: base64, html: base64, rawHtml: base64, links: [], images: [], metadata: {}, warnings: [] };
  }
  // the extractor's caps apply: pages (maxPages, else its default), decompressed bytes, and the extraction budget
  // checked between pages
  const pdf = await extractPdf(body, {
    ...settings.pdf,
    ...(budgetMs !== undefined ? { deadline: Date.now() + budgetMs } : {}),
  });
  const html = paragraphsToHtml(pdf.markdown);
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
    warnings: pdf.warnings,
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
export function plainTextContent(task: ContentTask): BuiltContent {
  const text = pageText(task.page) ?? '';
  const plain = htmlToPlainText(text);
  const warnings = [budgetWarning(task.budgetMs)];
  if (plain.truncated) warnings.push(`The plain text was cut at ${plain.text.length} characters.`);
  return {
    markdown: task.settings.markdown ? plain.text : undefined,
    html: task.settings.html ? paragraphsToHtml(plain.text) : undefined,
    rawHtml: text,
    links: [],
    images: [],
    metadata: plain.title ? { title: plain.title } : {},
    warnings,
    cut: true,
  };
}

/**
 * Turns a fetched page into the content fields of a document, by content type: the CPU-bound part of a scrape,
 * run in a worker thread of the extraction pool. An HTML page whose markdown conversion passes the task's budget
 * comes back as its plain text (`cut`), with a warning.
 */
export async function extractContent(task: ContentTask): Promise<BuiltContent> {
  const { page, settings } = task;
  const type = page.contentType;
  if (isPdf(page)) return pdfContent(task);
  const text = pageText(page);
  if (text === undefined) {
    throw new CrawlkitError(
      'SCRAPE_UNSUPPORTED_FILE_ERROR',
      `Scrape resulted in unsupported file: ${type || 'binary content'}`,
    );
  }
  if (isJson(type)) return textDocument(text, '```json\n' + text + '\n```', settings);
  if (isXml(type) && !/^\s*<!doctype html|<html[\s>]/i.test(text.slice(0, 1024))) {
    return textDocument(text, '```xml\n' + text + '\n```', settings);
  }
  if (!isHtml(type) && type.startsWith('text/')) return textDocument(text, text, settings);

  const options: ExtractPageOptions = {
    url: page.url,
    onlyMainContent: settings.onlyMainContent,
    ...(settings.includeTags ? { includeTags: settings.includeTags } : {}),
    ...(settings.excludeTags ? { excludeTags: settings.excludeTags } : {}),
    removeBase64Images: settings.removeBase64Images,
    formats: {
      markdown: settings.markdown,
      html: settings.html,
      links: settings.links,
      images: settings.images,
      metadata: true,
      discoveryLinks: settings.collectLinks,
      attributes: settings.attributes,
    },
    ...(task.budgetMs !== undefined ? { deadline: Date.now() + task.budgetMs } : {}),
  };
  let extracted: ExtractedPage;
  try {
    extracted = extractPage(text, options);
    if (page.clientRendered) {
      extracted = clientRenderedPage(extracted, text, options, { ...page, clientRendered: page.clientRendered });
    }
  } catch (error) {
    if (isMarkdownBudgetError(error)) return plainTextContent(task);
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
    ...(settings.collectLinks && extracted.canonical ? { canonical: extracted.canonical } : {}),
  };
}

/** Extracts a page in this thread (tests, and the engine's inline mode `workers.size: 0`). */
export function buildContent(fetched: FetchedContent, options: ContentOptions): Promise<BuiltContent> {
  return extractContent(contentTask(fetched, options));
}
