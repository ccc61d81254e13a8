/**
 * The extraction of a page, as plain data: what the scrape sends to the extraction worker threads (strings, plain
 * objects and byte arrays; DOMs never cross) and what comes back.
 */
import type { AttributeSelector, AttributeValues, ExplainedPage } from '@crawlkit/extractor';
import type { UndecodedText } from '@crawlkit/fetcher/analysis';
import type { ExtractionWarning } from '@crawlkit/extractor/page-warnings';
import type { CountedTerms } from '@crawlkit/store/search-terms';

import type { SearchHead } from '../search/search-head.js';

/**
 * What a page is, for extraction: decided on the main thread from its content type and first bytes
 * (`pageKind`), never from its URL's extension, except for CSV and TSV text served under a generic type.
 */
export type PageKind = 'html' | 'pdf' | 'document' | 'json' | 'xml' | 'text' | 'unsupported';

/** What extraction reads of a fetched page. */
export interface ExtractionInput {
  url: string;
  contentType: string;
  kind: PageKind;
  /** Decoded text of textual content. */
  text?: string;
  /** WHATWG name of the encoding `text` was decoded with: the queries of the page's links are encoded in it. */
  charset?: string;
  /** The served file's name (`fileNameOf`): its `Content-Disposition` filename, else its URL's last segment. */
  fileName?: string;
  /** The response's `Content-Language` header: the page's language when its HTML names none. */
  contentLanguage?: string;
  /** Raw bytes of binary content (PDF), or of text not decoded yet (`undecodedText`). */
  body?: Uint8Array;
  /** Set when `body` is text left undecoded by the fetch: it is decoded in the worker (see `inputText`). */
  undecodedText?: UndecodedText;
  /** The render judge's reason, for a page served over HTTP although it looks client-rendered. */
  clientRendered?: string;
  engineReason?: string;
}

/** What the requested formats need extraction to compute (`FormatModule.extraction`). */
export interface ExtractionNeeds {
  markdown?: boolean;
  html?: boolean;
  /** The page's own text sent back (it is as large as the page: only when the caller does not have it). */
  rawHtml?: boolean;
  links?: boolean;
  images?: boolean;
  /** The `attributes` format's selectors. */
  attributes?: AttributeSelector[];
}

/** Which pages of a PDF are read by OCR: none (`fast`), those without a text layer (`auto`), all (`ocr`). */
export type PdfMode = 'fast' | 'auto' | 'ocr';

/**
 * How to extract a page: what to compute (the formats' needs) and the content options of the request. Plain data:
 * also the memo's fingerprint of a request's extraction (two requests with the same settings get the same result).
 */
export interface ExtractionSettings extends Required<ExtractionNeeds> {
  onlyMainContent: boolean;
  includeTags?: string[];
  excludeTags?: string[];
  removeBase64Images: boolean;
  /**
   * Markdown in raw-HTML mode (`markdownOptions.rawHtml`); absent when off, so default fingerprints stay as they were.
   */
  markdownRawHtml?: true;
  /** Figure captions kept (`markdownOptions.captions`); absent when off, as `markdownRawHtml`. */
  markdownCaptions?: true;
  /** Embeds and players as link lines (`markdownOptions.embeds`); absent when off, as `markdownRawHtml`. */
  markdownEmbeds?: true;
  /** PDF parsing: `false` returns the file as base64; `mode` (absent: `auto`) says which pages are read by OCR. */
  pdf: false | { maxPages?: number; mode?: PdfMode };
  /** Whether images are read by OCR (the `image` parser). */
  ocrImages: boolean;
  /** Also collect every link of the whole page (crawl discovery), and its canonical URL. */
  collectLinks: boolean;
  /** Also the page's text for the search index (`markdownText` of its markdown), made in the worker. */
  searchText?: boolean;
  /** With `searchText`, also its terms counted (`countTerms`), for an index that counts them as it writes. */
  searchTerms?: true;
  /**
   * Also the main content's hashes (`contentHash`, and `foldHash` for a page naming a canonical), made in the worker:
   * a crawl's change feed and its fold read them. Absent when off, as `markdownRawHtml`.
   */
  hashContent?: true;
  /** Also every block's verdict (`explainPage`), while `DEBUG=crawlkit:explain` or its channel listens. */
  explain?: true;
}

/** One page's extraction, as sent to a worker. */
export interface ExtractionRequest {
  page: ExtractionInput;
  settings: ExtractionSettings;
  /**
   * Time extraction may take from its start, in milliseconds; past it the page's plain text is returned instead
   * (with a warning).
   */
  budgetMs?: number;
}

/** What extraction made of a page: the fields the formats read, and what crawl discovery reads. */
export interface Extraction {
  markdown?: string;
  html?: string;
  /** The page's own text, when asked and the caller sent bytes (else the caller has it as `text`). */
  rawHtml?: string;
  links?: string[];
  images?: string[];
  /** Page-derived metadata (meta tags, title, ...). */
  metadata: Record<string, unknown>;
  /** For the document's `warning`, in order: the extractor's main-content ones carry their code (`PageWarning`). */
  warnings: ExtractionWarning[];
  /** PDF pages parsed (absent when the page is not a parsed PDF). */
  pdfPages?: number;
  /** Every block of an HTML page with its verdict, when `settings.explain`. */
  explained?: ExplainedPage;
  /** Every link of the whole page, when `collectLinks` was asked. */
  discoveredLinks?: string[];
  /** The `attributes` format's values (HTML pages only). */
  attributes?: AttributeValues[];
  /**
   * The page's `rel=canonical` URL, absolute (crawl de-duplication): also when no links are collected, as a
   * `sitemap: 'only'` crawl folds pages by it too.
   */
  canonical?: string;
  /** The page's text for the search index, when `settings.searchText` asked for it. */
  searchText?: string;
  /** `searchTextDigest(searchText)`, made beside it (the store's thread need not hash the page). */
  searchTextDigest?: string;
  /** `searchText`'s terms with the title and description they were counted with, when `settings.searchTerms`. */
  searchTerms?: CountedTerms & SearchHead;
  /** `contentHash(markdown)`, when `settings.hashContent` asked for it. */
  contentHash?: string;
  /** `foldHash(markdown)`, when `settings.hashContent` asked for it and the page names a canonical. */
  foldHash?: string;
  /** Set when the extraction budget cut the full extraction: the result is the page's plain text. */
  cut?: true;
}
