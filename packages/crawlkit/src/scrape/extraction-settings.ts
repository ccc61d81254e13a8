import type { ExtractionInput, ExtractionSettings } from '../extraction/extraction.js';
import { fileNameOf } from '../extraction/file-name.js';
import { pageKind } from '../extraction/page-kind.js';
import { extractionNeeds } from '../formats/registry.js';
import { explanationWanted } from './explanation.js';
import type { FetchedPage } from './fetched-page.js';
import type { ScrapeState } from './scrape-state.js';
import type { PageScrapeRequest } from './types.js';

/**
 * How to extract the page for `request`: what its formats need, and its content options. `indexed`: the page's text
 * goes to the search index, which reads its markdown whatever the formats (`'counted'`: with its terms counted).
 * `hashed` asks for the main content as markdown whatever the formats, and its hashes (a crawl's change feed and
 * fold read them).
 */
export function extractionSettings(
  request: PageScrapeRequest,
  collectLinks: boolean,
  indexed: boolean | 'counted' = false,
  hashed = false,
): ExtractionSettings {
  const pdf = request.parsers.find((p) => p.type === 'pdf');
  const needs = extractionNeeds(request.formats);
  if (indexed || hashed) needs.markdown = true;
  const settings: ExtractionSettings = {
    ...needs,
    onlyMainContent: request.onlyMainContent,
    removeBase64Images: request.removeBase64Images,
    pdf: pdf
      ? { ...(pdf.maxPages !== undefined ? { maxPages: pdf.maxPages } : {}), ...(pdf.mode ? { mode: pdf.mode } : {}) }
      : false,
    ocrImages: request.parsers.some((p) => p.type === 'image'),
    collectLinks,
  };
  if (request.includeTags) settings.includeTags = request.includeTags;
  if (request.excludeTags) settings.excludeTags = request.excludeTags;
  if (request.markdownOptions?.rawHtml) settings.markdownRawHtml = true;
  if (request.markdownOptions?.captions) settings.markdownCaptions = true;
  if (request.markdownOptions?.embeds) settings.markdownEmbeds = true;
  // Made in the worker: the main thread, which writes the store, is the crawl's bottleneck.
  if (indexed) settings.searchText = true;
  if (indexed === 'counted') settings.searchTerms = true;
  if (hashed) settings.hashContent = true;
  return settings;
}

/** What the extraction worker reads of a fetched page, with its kind decided here. */
export function extractionInput(
  page: Pick<
    FetchedPage,
    'url' | 'contentType' | 'text' | 'charset' | 'body' | 'undecodedText' | 'clientRendered' | 'engineReason'
  > & { headers?: Record<string, string> },
): ExtractionInput {
  const fileName = fileNameOf(page.url, page.headers?.['content-disposition']);
  const input: ExtractionInput = {
    url: page.url,
    contentType: page.contentType,
    kind: pageKind({
      contentType: page.contentType,
      text: page.text,
      body: page.body,
      undecoded: page.undecodedText !== undefined,
      fileName,
    }),
  };
  if (fileName !== undefined) input.fileName = fileName;
  if (page.text !== undefined) input.text = page.text;
  if (page.charset !== undefined) input.charset = page.charset;
  const contentLanguage = page.headers?.['content-language'];
  if (contentLanguage !== undefined) input.contentLanguage = contentLanguage;
  if (page.body !== undefined) input.body = page.body;
  if (page.undecodedText !== undefined) input.undecodedText = page.undecodedText;
  if (page.clientRendered !== undefined) input.clientRendered = page.clientRendered;
  if (page.engineReason !== undefined) input.engineReason = page.engineReason;
  return input;
}

/**
 * Whether the scrape's page goes to its store's search index: when the store keeps one and something stores the
 * page's text, a job's result or the page cache (written now, or read: an extraction memoised with a cached page
 * serves later writes too). A scrape that neither reads nor writes the cache, outside a job, stores nothing.
 */
export function indexesPage(state: ScrapeState): boolean {
  if (state.store?.search === undefined) return false;
  return state.context.jobId !== undefined || state.cache.writable || state.cache.readable;
}

/** Each scrape's settings, made once: the fetch, the extraction and the cache's write all ask for them. */
const settingsOfScrape = new WeakMap<ScrapeState, ExtractionSettings>();

/** How to extract the page of a scrape (`extractionSettings` of its request, indexed when `indexesPage`). */
export function scrapeExtractionSettings(state: ScrapeState): ExtractionSettings {
  let settings = settingsOfScrape.get(state);
  if (!settings) {
    settings = extractionSettings(
      state.request,
      state.context.collectLinks === true,
      indexesPage(state) && (state.store!.search!.countsAhead === true ? 'counted' : true),
      state.context.hashContent === true,
    );
    if (explanationWanted()) settings.explain = true;
    settingsOfScrape.set(state, settings);
  }
  return settings;
}

/**
 * Whether the formats of a scrape read the page's content: not for `rawBase64` alone, whose answer is the bytes. The
 * search index does not count (a file crawlkit cannot read has no text to index).
 */
export function formatsReadContent(state: ScrapeState): boolean {
  const needs = extractionSettings(
    state.request,
    state.context.collectLinks === true,
    false,
    state.context.hashContent === true,
  );
  return (
    needs.markdown ||
    needs.html ||
    needs.rawHtml ||
    needs.links ||
    needs.images ||
    needs.attributes.length > 0 ||
    needs.collectLinks
  );
}
