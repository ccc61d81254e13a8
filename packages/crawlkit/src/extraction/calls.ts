/**
 * The CPU-bound work of a page, as calls of plain data: what the main thread sends to the extraction pool's worker
 * threads, and what comes back. Strings, plain objects and byte arrays cross; DOMs never do.
 */
import { cutPdfRead, type PdfCutRead } from '@crawlkit/documents';
import { diffMarkdown, isSameText, type MarkdownDiff } from '@crawlkit/extractor';
import { judgeRendering, type JudgedPage, type RenderVerdict } from '@crawlkit/fetcher/analysis';
import { readSitemap, type SitemapBody, type SitemapDocument } from '@crawlkit/frontier';

import type { MapScope, PageLinks } from '../api/map-links.js';
import { pageLinks } from '../api/page-links.js';
import { isErrorCode } from '../error-codes.js';
import { extractPageInput, inputDocument, pdfModeExtraction, plainTextExtraction } from './extract-page.js';
import type { CallRun } from './call-times.js';
import type { Extraction, ExtractionRequest, PdfMode } from './extraction.js';
import { summarizeExtractive } from './extractive-summary.js';

export type ExtractionCall =
  /** A page's extraction by its kind: HTML, PDF, JSON, XML, text. */
  | ({ kind: 'extract' } & ExtractionRequest)
  /** The fallback rendering of a page whose extraction was cut: linear, no DOM. */
  | ({ kind: 'plainText' } & ExtractionRequest)
  /**
   * A PDF whose worker was stopped past the budget: what it had read (`pdf-progress.ts`), composed as its parse in
   * `mode` would have answered it.
   */
  | ({ kind: 'pdfCut'; budgetMs?: number; mode: PdfMode } & PdfCutRead)
  /** The render judge's verdict on a page fetched over HTTP: whether it needs the browser. */
  | { kind: 'judge'; page: JudgedPage; countAll?: boolean }
  /**
   * The render judge's verdict and, when it finds nothing missing, the page's extraction: the page is decoded and
   * copied once for both.
   */
  | { kind: 'judgeAndExtract'; page: JudgedPage; extraction: ExtractionRequest; countAll?: boolean }
  /** What `map` takes of a page it follows: its title, description and the links its request keeps. */
  | { kind: 'pageLinks'; page: { url: string; text: string; charset?: string }; scope: MapScope }
  /** A fetched sitemap read (gunzip, decode, XML parse): up to 50 MiB of it. `null`: an HTML page, not a sitemap. */
  | ({ kind: 'sitemap' } & SitemapBody)
  /** Change tracking: the comparison of two markdowns and, when asked, their git-style diff. */
  | { kind: 'compare'; previous: string; current: string; gitDiff: boolean }
  /** The extractive summary of a markdown. */
  | { kind: 'summary'; markdown: string };

/** A `judgeAndExtract` call's answer: the extraction only when the verdict has no reason to render. */
export interface JudgedExtraction {
  verdict: RenderVerdict;
  extraction?: Extraction;
}

export interface Comparison {
  same: boolean;
  diff?: MarkdownDiff;
}

/** What each kind of call answers. */
export interface CallResults {
  extract: Extraction;
  plainText: Extraction;
  pdfCut: Extraction;
  judge: RenderVerdict;
  judgeAndExtract: JudgedExtraction;
  pageLinks: PageLinks;
  sitemap: SitemapDocument | null;
  compare: Comparison;
  summary: string;
}

export type CallResult<T extends ExtractionCall> = CallResults[T['kind']];

/**
 * A call's answer as it crosses back: errors are sent as data (a thrown error loses its class and `code` on the
 * way), with the crawlkit code when the failure has one.
 */
export type CallReply<T = unknown> = (
  { ok: true; value: T } | { ok: false; code?: string; message: string; name: string }
) & {
  /** What the thread that ran the call measured of its run (a worker's replies carry it). */
  run?: CallRun;
};

/**
 * The page's own text is sent back only when `rawHtml` was asked and the caller does not have it (it sent bytes):
 * a string as large as the page costs more to copy than anything else a call answers.
 */
function withoutInput(request: ExtractionRequest, extraction: Extraction): Extraction {
  if (extraction.rawHtml === undefined) return extraction;
  if (!request.settings.rawHtml || extraction.rawHtml === request.page.text) delete extraction.rawHtml;
  return extraction;
}

/** Runs one call in this thread. */
export async function runCall(call: ExtractionCall): Promise<CallResults[ExtractionCall['kind']]> {
  switch (call.kind) {
    case 'extract':
      return withoutInput(call, await extractPageInput(call));
    case 'plainText':
      return withoutInput(call, plainTextExtraction(call));
    case 'pdfCut':
      return pdfModeExtraction(cutPdfRead(call, call.mode), call.mode, call.budgetMs);
    case 'judge':
      return judgeRendering(call.page, { countAll: call.countAll });
    case 'judgeAndExtract': {
      const decoded = inputDocument(call.extraction.page);
      const { undecoded: _bytes, ...page } = call.page;
      const verdict = judgeRendering(decoded === undefined ? page : { ...page, text: decoded.text }, {
        countAll: call.countAll,
      });
      if (verdict.reason !== undefined || decoded === undefined) return { verdict };
      const { body: _body, undecodedText: _undecoded, ...input } = call.extraction.page;
      const extraction = await extractPageInput({ ...call.extraction, page: { ...input, ...decoded } });
      return { verdict, extraction: withoutInput(call.extraction, extraction) };
    }
    case 'pageLinks':
      return pageLinks(call.page, call.scope);
    case 'sitemap':
      return readSitemap(call) ?? null;
    case 'compare': {
      const same = isSameText(call.previous, call.current);
      if (same || !call.gitDiff) return { same };
      const diff = await diffMarkdown(call.previous, call.current);
      return { same, diff: { text: diff.text, json: diff.json } };
    }
    case 'summary':
      return summarizeExtractive(call.markdown);
  }
}

/** Runs one call and answers its reply as data: never throws. */
export async function settleCall(call: ExtractionCall): Promise<CallReply> {
  try {
    return { ok: true, value: await runCall(call) };
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    const code = (e as { code?: unknown }).code;
    return { ok: false, message: e.message, name: e.name, ...(isErrorCode(code) ? { code } : {}) };
  }
}
