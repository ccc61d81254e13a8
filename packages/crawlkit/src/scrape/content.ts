import { extractPage, extractPdf, type ExtractPageOptions } from '@crawlkit/extractor';

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
  /** Raw bytes of binary content (PDF). */
  body?: Uint8Array;
  screenshot?: string;
  actions?: ActionResults;
  engine: 'http' | 'browser';
  engineReason?: string;
  /** The render judge's reason, for a page served over HTTP although it looks client-rendered. */
  clientRendered?: string;
  proxyUsed: 'basic' | 'stealth';
}

export type ContentOptions = Pick<
  ScrapeOptions,
  'formats' | 'onlyMainContent' | 'includeTags' | 'excludeTags' | 'removeBase64Images' | 'parsers'
> & {
  /** Epoch ms by which extraction must be done. */
  deadline?: number;
  /** Also collect every link of the whole page (crawl discovery). */
  collectLinks?: boolean;
};

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
  /** The page's `rel=canonical` URL, absolute, when `collectLinks` was asked (crawl de-duplication). */
  canonical?: string;
}

const has = (formats: readonly Format[], ...types: Format['type'][]) => formats.some((f) => types.includes(f.type));

/** Markdown is computed whenever a format needs it (reference §4), and returned only when asked for. */
export function needsMarkdown(formats: readonly Format[]): boolean {
  return has(formats, 'markdown', 'summary', 'json', 'changeTracking');
}

function isPdf(fetched: FetchedContent): boolean {
  if (fetched.contentType === 'application/pdf') return true;
  const b = fetched.body;
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

function textDocument(text: string, markdown: string, options: ContentOptions): BuiltContent {
  const html = `<html><body><pre>${escapeHtml(text)}</pre></body></html>`;
  return {
    markdown: needsMarkdown(options.formats) ? markdown : undefined,
    html: has(options.formats, 'html') ? html : undefined,
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

async function pdfContent(fetched: FetchedContent, options: ContentOptions): Promise<BuiltContent> {
  const body = fetched.body ?? new TextEncoder().encode(fetched.text ?? '');
  const parser = options.parsers.find((p) => p.type === 'pdf');
  if (!parser) {
    // PDF parsing is off: the document is the PDF itself, base64-encoded (reference §6).
    const base64 = Buffer.from(body).toString('base64');
    return { markdown: base64, html: base64, rawHtml: base64, links: [], images: [], metadata: {}, warnings: [] };
  }
  const pdf = await extractPdf(body, parser.maxPages !== undefined ? { maxPages: parser.maxPages } : {});
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
    warnings: [],
    pdfPages: pdf.numPages,
  };
}

/** Turns a fetched response into the content fields of a document, by content type. */
export async function buildContent(fetched: FetchedContent, options: ContentOptions): Promise<BuiltContent> {
  const type = fetched.contentType;
  if (isPdf(fetched)) return pdfContent(fetched, options);
  const text = fetched.text;
  if (text === undefined) {
    throw new CrawlkitError(
      'SCRAPE_UNSUPPORTED_FILE_ERROR',
      `Scrape resulted in unsupported file: ${type || 'binary content'}`,
    );
  }
  if (isJson(type)) return textDocument(text, '```json\n' + text + '\n```', options);
  if (isXml(type) && !/^\s*<!doctype html|<html[\s>]/i.test(text.slice(0, 1024))) {
    return textDocument(text, '```xml\n' + text + '\n```', options);
  }
  if (!isHtml(type) && type.startsWith('text/')) return textDocument(text, text, options);

  const formats = options.formats;
  const extractOptions: ExtractPageOptions = {
    url: fetched.url,
    onlyMainContent: options.onlyMainContent,
    ...(options.includeTags ? { includeTags: options.includeTags } : {}),
    ...(options.excludeTags ? { excludeTags: options.excludeTags } : {}),
    removeBase64Images: options.removeBase64Images,
    formats: {
      markdown: needsMarkdown(formats),
      html: has(formats, 'html'),
      links: has(formats, 'links'),
      images: has(formats, 'images'),
      metadata: true,
      discoveryLinks: options.collectLinks === true,
    },
    ...(options.deadline !== undefined ? { deadline: options.deadline } : {}),
  };
  let page = extractPage(text, extractOptions);
  if (fetched.clientRendered)
    page = clientRenderedPage(page, text, extractOptions, { ...fetched, clientRendered: fetched.clientRendered });
  return {
    markdown: page.markdown,
    html: page.html,
    rawHtml: text,
    links: page.links,
    images: page.images,
    metadata: page.metadata ?? {},
    warnings: page.warnings,
    ...(page.discoveryLinks ? { discoveredLinks: page.discoveryLinks } : {}),
    ...(options.collectLinks && page.canonical ? { canonical: page.canonical } : {}),
  };
}
