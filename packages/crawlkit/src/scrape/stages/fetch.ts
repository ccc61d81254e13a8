import {
  type JudgedPage,
  type JudgeOptions,
  type PageRequest,
  type RenderVerdict,
  type UndecodedText,
} from '@crawlkit/fetcher';

import { CrawlkitError } from '../../errors.js';
import { recorder } from '../../record/job-recording.js';
import type { Extraction, ExtractionRequest } from '../../extraction/extraction.js';
import { afterFetch, fetchError, shapeFetch } from '../../formats/registry.js';
import { extractionInput, scrapeExtractionSettings } from '../extraction-settings.js';
import { fetchedPage } from '../fetched-page.js';
import type { EngineAdvice, FetchedState, ScrapeStage, ScrapeState } from '../scrape-state.js';
import { extractionWatch } from '../timings.js';

/** The verdict of crawlkit's render judge: the page's extraction comes with it when the judge found nothing missing. */
export interface ExtractingVerdict extends RenderVerdict {
  extraction?: Extraction;
}

/** The fetcher's request for the scrape: its options, and what its formats ask of the fetch. */
function pageRequest(state: ScrapeState, advice: EngineAdvice): PageRequest<ExtractingVerdict> {
  const { request } = state;
  const page: PageRequest<ExtractingVerdict> = {
    url: request.url,
    timeoutMs: state.deadline.budgetMs,
    skipTlsVerification: request.skipTlsVerification,
    signal: state.signal,
    // The page's bytes go to the extraction worker, which decodes them: the main thread makes no page-sized string.
    deferDecoding: true,
    mobile: request.mobile,
    waitFor: request.waitFor,
    blockAds: request.blockAds,
    proxy: request.proxy,
    browserSlot: state.deadline.browserSlot(),
    onActions: state.deadline.actions,
  };
  // A retried page has what its earlier attempts left of its timeout: the browser's messages name the whole.
  if (state.deadline.budgetMs < state.deadline.timeoutMs) page.statedTimeoutMs = state.deadline.timeoutMs;
  if (request.fastMode) page.renderIfNeeded = false;
  if (advice.hostNeeds) page.hostNeeds = advice.hostNeeds;
  if (advice.checkEngines) page.checkEngines = true;
  if (request.headers) page.headers = request.headers;
  if (request.location) page.location = request.location;
  if (request.actions?.length) page.actions = request.actions;
  // A job page's error is stored in v2's shape, without `details`: a picture of the failed page would go nowhere.
  if (request.actions?.length && state.context.jobId !== undefined) page.actionFailureScreenshot = false;
  if (state.onRequestStart) page.onRequestStart = state.onRequestStart;
  if (state.onAnswer) page.onAnswer = state.onAnswer;
  if (state.ctx.recording) page.onExchange = recorder(state.ctx.recording, request.url);
  shapeFetch(request.formats, page);
  page.renderJudge = extractingJudge(state);
  const revalidation = state.revalidation;
  if (revalidation) {
    // The copy was served over HTTP: its validators are asked over HTTP too (a 304 is no page to judge or render).
    page.headers = { ...page.headers, ...revalidation.headers };
    page.engine = 'http';
  }
  return page;
}

/**
 * The render judge of the scrape: it judges a page fetched over HTTP in a worker and, when it finds nothing missing,
 * extracts it in the same call (the page's bytes cross and are decoded once, not once to judge and once more to
 * extract). The fetcher attaches the verdict to the page it judged, so the extraction is used for that page only.
 */
/** How to decode the judged page's bytes: its `undecoded` but the bytes. */
function undecodedText({ body: _body, ...text }: NonNullable<JudgedPage['undecoded']>): UndecodedText {
  return text;
}

function extractingJudge(state: ScrapeState) {
  const settings = scrapeExtractionSettings(state);
  return async (page: JudgedPage, options: JudgeOptions = {}): Promise<ExtractingVerdict> => {
    // `304 Not Modified` has no body: the copy it confirms is extracted (or its extraction reused) instead.
    if (page.status === 304 && state.revalidation) return {};
    const request: ExtractionRequest = {
      page: extractionInput({
        url: page.url,
        contentType: page.contentType,
        headers: page.headers,
        text: page.text,
        body: page.undecoded?.body,
        undecodedText: page.undecoded ? undecodedText(page.undecoded) : undefined,
      }),
      settings,
    };
    const budgetMs = state.ctx.options.extractionBudgetMs;
    if (budgetMs !== undefined) request.budgetMs = budgetMs;
    state.deadline.extracting();
    const started = performance.now();
    const judged = await state.ctx.extraction.judgeAndExtract(page, request, options, extractionWatch(state));
    state.timings.recordInside('extract', performance.now() - started);
    state.deadline.fetching();
    return judged.extraction ? { ...judged.verdict, extraction: judged.extraction } : judged.verdict;
  };
}

/**
 * Fetches the page, unless the cache answered, with the engine the fetcher's rule chooses; the formats shape the
 * fetch (a screenshot, the browser for branding) and take what they need out of it before it is cached.
 */
export const fetchStage: ScrapeStage = {
  name: 'fetch',
  async run(state) {
    if (state.page) return;
    const { request } = state;
    // The cache lookup answers every lockdown request or refuses it: no socket is ever opened for one.
    if (request.lockdown)
      throw new CrawlkitError('SCRAPE_LOCKDOWN_CACHE_MISS', 'lockdown: the page was not in the cache.');
    // The extraction threads load while the page is fetched; not for a conditional refetch, whose expected answer
    // (a 304) needs no extraction: a recrawl of an unchanged site in a new process never starts them.
    if (!state.revalidation) state.ctx.extraction.warm();
    const result = await state.ctx.fetcher
      .fetch(pageRequest(state, state.engineAdvice ?? {}))
      .catch((error: unknown) => {
        throw fetchError(request.formats, error);
      });
    if (result.engineEvidence) state.engineEvidence = result.engineEvidence;
    if (result.verdict?.extraction) state.judgedExtraction = result.verdict.extraction;
    state.page = fetchedPage(result, request.url, state.ctx.warning);
    afterFetch(state as FetchedState);
  },
};
