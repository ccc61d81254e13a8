import { redactUrl, type PageRequest, type PageResult } from '@crawlkit/fetcher';

import type { EngineContext } from '../context.js';
import type { EngineAdvice } from '../jobs/engine-learning.js';
import { httpStatusOf } from '../error-codes.js';
import { isStoreFault } from '../store-faults.js';
import { CrawlkitError, toErrorResponse } from '../errors.js';
import { findFormat } from '../v2/formats.js';
import type { ActionResults, Document, DocumentMetadata, ErrorResponse } from '../v2/types.js';
import {
  brandingFetchError,
  brandingOf,
  takeBrandingCapture,
  withBrandingAction,
  type BrandingCapture,
} from './branding.js';
import { cacheKey, canReadCache, canWriteCache } from './cache-policy.js';
import { trackChanges } from './change-tracking.js';
import {
  attributeSelectors,
  contentSettings,
  contentTask,
  type BuiltContent,
  type ContentOptions,
  type FetchedContent,
} from './content.js';
import { EarlyContent } from './early-content.js';
import { contentMemoFor } from './content-memo.js';
import { documentCredits } from './credits.js';
import { runPostprocessors } from './postprocess.js';
import { ScrapePhase } from './scrape-phase.js';
import { scrapeId as newScrapeId } from './scrape-id.js';
import { serializeFetched, storedLength } from './serialize.js';
import type { PageScrapeContext, PageScrapeOutcome, PageScrapeRequest } from './types.js';

const has = (request: PageScrapeRequest, type: string) => request.formats.some((f) => f.type === type);

function toFetched(result: PageResult): FetchedContent {
  const fetched: FetchedContent = {
    url: result.url,
    status: result.status,
    contentType: result.contentType,
    headers: result.headers,
    engine: result.engine,
    engineReason: result.engineReason,
    proxyUsed: result.proxyUsed,
  };
  if (result.clientRendered !== undefined) fetched.clientRendered = result.clientRendered;
  if (result.charset !== undefined) fetched.charset = result.charset;
  if (result.text !== undefined) fetched.text = result.text;
  else fetched.body = result.body;
  if (result.undecodedText) fetched.undecodedText = result.undecodedText;
  if (result.screenshot !== undefined) fetched.screenshot = result.screenshot;
  if (result.actions !== undefined) fetched.actions = result.actions;
  const warnings = [...(result.warnings ?? [])];
  if (result.unsupportedFeatures?.length) {
    warnings.push(
      `The engine used does not support the following features: ${result.unsupportedFeatures.join(', ')} -- ` +
        'your scrape may be partial.',
    );
  }
  if (warnings.length) fetched.warnings = warnings;
  return fetched;
}

function pageRequest(
  request: PageScrapeRequest,
  timeoutMs: number,
  signal: AbortSignal,
  advice: EngineAdvice = {},
): PageRequest {
  const shot = findFormat(request.formats, 'screenshot');
  const page: PageRequest = {
    url: request.url,
    timeoutMs,
    skipTlsVerification: request.skipTlsVerification,
    signal,
    // The page's bytes go to the extraction worker, which decodes them: the main thread makes no page-sized string.
    deferDecoding: true,
    mobile: request.mobile,
    waitFor: request.waitFor,
    blockAds: request.blockAds,
    proxy: request.proxy,
  };
  if (request.fastMode) page.renderIfNeeded = false;
  if (advice.hostNeeds) page.hostNeeds = advice.hostNeeds;
  if (advice.checkEngines) page.checkEngines = true;
  if (request.headers) page.headers = request.headers;
  if (request.location) page.location = request.location;
  if (request.actions?.length) page.actions = request.actions;
  if (shot) {
    page.screenshot = { fullPage: shot.fullPage };
    if (shot.quality !== undefined) page.screenshot.quality = shot.quality;
    if (shot.viewport) page.screenshot.viewport = shot.viewport;
  }
  if (has(request, 'branding')) {
    page.engine = 'browser';
    page.actions = withBrandingAction(page.actions);
  }
  return page;
}

function nonEmptyActions(actions: ActionResults | undefined): ActionResults | undefined {
  if (!actions) return undefined;
  const kept = Object.entries(actions).filter(([, v]) => Array.isArray(v) && v.length > 0);
  return kept.length ? Object.fromEntries(kept) : undefined;
}

/**
 * Runs one scrape: cache, fetch, extraction, formats. Never throws but what `context.pace` throws (its
 * `ScrapeDeferred`, or a failure of the job's store, which is no failure of the page): failures of the page come back
 * in the v2 error shape.
 */
export async function scrapePage(
  ctx: EngineContext,
  request: PageScrapeRequest,
  context: PageScrapeContext,
): Promise<PageScrapeOutcome> {
  const timeoutMs = request.timeout ?? ctx.options.timeoutMs;
  // A timer cleared when the scrape ends (AbortSignal.timeout's would stay armed for the whole timeout, one per
  // scrape: thousands of live timers in a fast run of cache hits).
  const timeoutController = new AbortController();
  const arm = () =>
    setTimeout(
      () => timeoutController.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
      timeoutMs,
    );
  let timer = arm();
  const timeout = timeoutController.signal;
  const signal = context.signal ? AbortSignal.any([timeout, context.signal]) : timeout;
  const phase = new ScrapePhase();
  /** Set while `context.pace` runs: what it throws is the caller's, not the page's. */
  let pacing = false;
  ctx.extraction.warm();
  try {
    ctx.llm.assertAvailable(request.formats);

    const normalizedUrl = ctx.normalizeUrl(request.url);
    const key = cacheKey(normalizedUrl, request);
    const store = context.zeroDataRetention ? undefined : ctx.store;
    let fetched: FetchedContent | undefined;
    let cacheState: 'hit' | 'miss' | undefined;
    let cachedAt: string | undefined;
    /** The page cache entry this scrape read or wrote: its extracted content is memoized per process. */
    let entry: { cachedAt: number; length: number } | undefined;
    const memo = store ? contentMemoFor(store) : undefined;

    if (store && canReadCache(request)) {
      const lookup: { maxAge?: number; minAge?: number } = {};
      if (request.maxAge > 0) lookup.maxAge = request.maxAge;
      if (request.minAge !== undefined) lookup.minAge = request.minAge;
      const hit = await store.pages.get(key, lookup);
      if (hit) {
        fetched = memo!.fetched(key, hit);
        entry = { cachedAt: hit.cachedAt, length: storedLength(hit) };
        cacheState = 'hit';
        cachedAt = new Date(hit.cachedAt).toISOString();
      } else if (request.minAge !== undefined) {
        throw new CrawlkitError(
          'SCRAPE_NO_CACHED_DATA',
          'No cached data available that meets the specified age requirements.',
        );
      } else {
        cacheState = 'miss';
      }
    }

    const contentOptions: ContentOptions = {
      ...request,
      ...(context.collectLinks ? { collectLinks: true } : {}),
    };
    let branding: BrandingCapture | undefined;
    let engineEvidence: 'http' | 'browser' | undefined;
    let early: BuiltContent | undefined;
    if (context.pace) {
      // A wait for the host's slot is neither fetch nor extraction: the timeout starts again after it.
      clearTimeout(timer);
      pacing = true;
      await context.pace();
      pacing = false;
      phase.restart();
      timer = arm();
    }
    if (!fetched) {
      const page = pageRequest(request, timeoutMs, signal, context.engine);
      // The judge may extract the page: a timeout meanwhile is one of extraction.
      const judging = new EarlyContent(
        ctx.extraction,
        contentSettings(contentOptions),
        ctx.options.extractionBudgetMs,
        phase,
      );
      page.renderJudge = judging.judge;
      const result = await ctx.fetcher.fetch(page).catch((error: unknown) => {
        throw brandingFetchError(request.formats, error);
      });
      engineEvidence = result.engineEvidence;
      fetched = toFetched(result);
      early = judging.take(fetched);
      branding = takeBrandingCapture(request.formats, fetched);
      // Only successful pages are cached: a 429 or a 5xx must not be served again for two days; nor an app shell
      // read without the browser (fastMode, browser unavailable), which a later request would want rendered.
      const cacheable = fetched.status >= 200 && fetched.status < 300 && fetched.clientRendered === undefined;
      if (store && cacheable && canWriteCache(request, context.zeroDataRetention)) {
        const stored = serializeFetched(fetched);
        entry = { cachedAt: Date.now(), length: storedLength(stored) };
        await store.pages.put({ key, url: normalizedUrl, cachedAt: entry.cachedAt, ...stored });
        memo!.remember(key, entry.cachedAt, entry.length, fetched);
      }
    }

    // Extraction runs in a worker thread. Its budget counts from its own start (a slow fetch does not eat it);
    // the page's timeout, armed above, bounds fetch and extraction together.
    phase.extracting();
    const task = contentTask(fetched, contentOptions, ctx.options.extractionBudgetMs);
    const extract = () => (early ? Promise.resolve(early) : ctx.extraction.content(task, signal, phase.running));
    const content = memo && entry ? await memo.content(key, entry, task.settings, extract) : await extract();
    phase.formats();
    const scrapeId = newScrapeId();
    const metadata: DocumentMetadata = {
      ...content.metadata,
      // The document leaves crawlkit (responses, events, webhooks, files): user info in a URL never goes with it.
      sourceURL: redactUrl(context.sourceURL),
      url: redactUrl(fetched.url),
      statusCode: fetched.status,
      contentType: fetched.contentType,
      proxyUsed: fetched.proxyUsed,
      scrapeId,
      engine: fetched.engine,
    };
    if (fetched.engineReason) metadata.engineReason = fetched.engineReason;
    if (cacheState) metadata.cacheState = cacheState;
    if (cachedAt) metadata.cachedAt = cachedAt;

    const document: Document = { metadata };
    if (has(request, 'markdown')) document.markdown = content.markdown ?? '';
    if (has(request, 'html')) document.html = content.html ?? '';
    if (has(request, 'rawHtml')) document.rawHtml = content.rawHtml ?? '';
    if (has(request, 'links')) document.links = content.links ?? [];
    if (has(request, 'images')) document.images = content.images ?? [];
    if (has(request, 'attributes')) {
      // Pages that are not HTML (PDF, JSON, text) have no elements: every selector comes back without values.
      document.attributes =
        content.attributes ?? attributeSelectors(request.formats).map((s) => ({ ...s, values: [] as string[] }));
    }
    if (has(request, 'screenshot') && fetched.screenshot !== undefined) document.screenshot = fetched.screenshot;
    const actions = nonEmptyActions(fetched.actions);
    if (actions) document.actions = actions;

    const warnings = [...(fetched.warnings ?? []), ...content.warnings];
    await runPostprocessors(ctx, { request, context, content, fetched, document, warnings, signal });
    const markdown = content.markdown ?? '';
    await trackChanges(ctx, { request, context, markdown, statusCode: fetched.status, document, warnings, signal });
    const profile = await brandingOf(ctx, { capture: branding, markdown, document, warnings, signal });
    if (profile) document.branding = profile;
    if (warnings.length) document.warning = warnings.join(' ');

    const credits = documentCredits({
      formats: request.formats,
      proxyUsed: fetched.proxyUsed,
      ...(content.pdfPages !== undefined ? { pdfPagesParsed: content.pdfPages } : {}),
      zeroDataRetention: context.zeroDataRetention,
    });
    metadata.creditsUsed = credits;
    const outcome: PageScrapeOutcome = { success: true, document, credits };
    if (content.discoveredLinks) outcome.links = content.discoveredLinks;
    if (content.canonical) outcome.canonical = content.canonical;
    const retryAfter = fetched.headers['retry-after'];
    if (retryAfter !== undefined) outcome.retryAfter = retryAfter;
    if (engineEvidence) outcome.engineEvidence = engineEvidence;
    return outcome;
  } catch (error) {
    if (pacing) throw error;
    // A store that did not answer (Redis down) is the store's failure, not the page's, whatever the clock says.
    const timedOut = timeout.aborted && !context.signal?.aborted && !isStoreFault(error);
    const response: ErrorResponse = timedOut
      ? { success: false, code: 'SCRAPE_TIMEOUT', error: phase.timeoutMessage(timeoutMs) }
      : toErrorResponse(error);
    return { success: false, error: response, status: httpStatusOf(response.code) };
  } finally {
    clearTimeout(timer);
  }
}
