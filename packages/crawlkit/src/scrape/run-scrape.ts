import { isRecord } from '../codec/record-codec.js';
import type { EngineContext } from '../context.js';
import { httpStatusOf } from '../error-codes.js';
import { CrawlkitError, toErrorResponse } from '../errors.js';
import { featureNeedingModel } from '../formats/registry.js';
import type { LlmUsage } from '../llm/generate.js';
import type { ErrorResponse } from '../v2/types.js';
import { cacheKey, canReadCache, canRevalidateCache, canWriteCache } from './cache-policy.js';
import { Deadline } from './deadline.js';
import type { ExtractedState, ScrapeStage, ScrapeState, StageEnd } from './scrape-state.js';
import { cacheLookup } from './stages/cache-lookup.js';
import { cacheWrite } from './stages/cache-write.js';
import { decodeStage } from './stages/decode.js';
import { extractStage } from './stages/extract.js';
import { fetchStage } from './stages/fetch.js';
import { formatsStage } from './stages/formats.js';
import { respond } from './stages/respond.js';
import { revalidateStage } from './stages/revalidate.js';
import { searchTextStage } from './stages/search-text.js';
import { StageTimings } from './timings.js';
import {
  pageTimeoutMs,
  type PageScrapeContext,
  type PageScrapeOutcome,
  type PageScrapeRequest,
  type ScrapeOutcome,
} from './types.js';
import { isStoreFault } from '../store-faults.js';
import { isFetchError } from '@crawlkit/fetcher';

/** The stages of a scrape before its fetch: a job inserts its own between them and the fetch. */
export const BEFORE_FETCH: readonly ScrapeStage[] = [cacheLookup];

/** The stages from the fetch on. */
export const FROM_FETCH: readonly ScrapeStage[] = [
  fetchStage,
  revalidateStage,
  decodeStage,
  extractStage,
  searchTextStage,
  cacheWrite,
  formatsStage,
];

/**
 * A direct scrape: cache lookup, fetch (conditional for a stale copy), revalidation, decode, extract, search text,
 * cache write, formats. The page is written after
 * its extraction, so that its text enters the search index in the same store transaction as the page.
 */
export const SCRAPE_STAGES: readonly ScrapeStage[] = [...BEFORE_FETCH, ...FROM_FETCH];

/** The state a scrape starts with: its deadline, its cache visit (key, readable, writable), nothing fetched yet. */
export function initialState(ctx: EngineContext, request: PageScrapeRequest, context: PageScrapeContext): ScrapeState {
  const deadline = new Deadline(pageTimeoutMs(request, ctx.options.timeoutMs), context.signal, context.spentMs);
  const normalizedUrl = ctx.normalizeUrl(request.url);
  const store = context.zeroDataRetention ? undefined : ctx.store;
  // A recording holds every page, fetched; a replay serves the recording's pages and keeps old pages out of the cache.
  const replay = ctx.options.engine === 'replay';
  const cacheable = store !== undefined && !replay && !ctx.recording;
  const readable = cacheable && canReadCache(request);
  return {
    ctx,
    request,
    context,
    deadline,
    signal: deadline.signal,
    timings: new StageTimings(),
    normalizedUrl,
    store,
    cache: {
      key: cacheKey(request.url, normalizedUrl, request),
      readable,
      revalidateOnly: !readable && cacheable && canRevalidateCache(request),
      writable: store !== undefined && !replay && canWriteCache(request, context.zeroDataRetention),
    },
    captures: {},
    warnings: [],
  };
}

/**
 * Runs one scrape through its stages, passing one state along, and answers the page's outcome: its document, its
 * failure in the v2 error shape (a timeout is `SCRAPE_TIMEOUT`, saying where the time went), or a stage's early end
 * (`deferred`, `dropped`: a job's host slot). Rejects only with what a stage marked `failures: 'caller'` throws
 * (a job's store failing is no failure of the page).
 */
export async function runScrape(
  ctx: EngineContext,
  request: PageScrapeRequest,
  context: PageScrapeContext,
  stages: readonly ScrapeStage[] = SCRAPE_STAGES,
): Promise<ScrapeOutcome> {
  const state = initialState(ctx, request, context);
  const { deadline, timings } = state;
  const measure = StageTimings.wanted;
  let outcome: ScrapeOutcome | undefined;
  let callerFailure: { error: unknown } | undefined;
  try {
    const feature = featureNeedingModel(request.formats, context.zeroDataRetention);
    if (feature) ctx.llm.assertModel(feature);
    for (const stage of stages) {
      const started = measure ? performance.now() : 0;
      if (stage.timed === false) deadline.suspend();
      let end: StageEnd | undefined | void;
      try {
        end = await stage.run(state);
      } catch (error) {
        if (stage.failures === 'caller') callerFailure = { error };
        throw error;
      } finally {
        if (measure) timings.record(stage.name, performance.now() - started);
      }
      if (stage.timed === false) deadline.resume();
      // A stage that finished past the deadline does not hand on: the page has timed out, whatever it did.
      state.signal.throwIfAborted();
      if (end) {
        outcome = end;
        return end;
      }
    }
    outcome = respond(state as ExtractedState);
    return outcome;
  } catch (error) {
    if (callerFailure) throw callerFailure.error;
    if (state.heldBackMs !== undefined && !deadline.timedOut) {
      outcome = { kind: 'deferred', retryInMs: state.heldBackMs };
      return outcome;
    }
    outcome = failure(error, deadline, state.llmUsage);
    return outcome;
  } finally {
    if (outcome && !('kind' in outcome)) outcome.pageMs = deadline.usedMs;
    deadline.clear();
    if (measure) timings.report(request.url, outcomeName(outcome));
  }
}

function failure(error: unknown, deadline: Deadline, llmUsage: LlmUsage | undefined): PageScrapeOutcome {
  // A store that did not answer (Redis down) is the store's failure, not the page's, whatever the clock says. An
  // engine's own timeout when the page's time is spent too is the page's, said where its time went.
  const timedOut = deadline.timedOut || (isFetchError(error) && error.code === 'SCRAPE_TIMEOUT' && deadline.spent);
  let response: ErrorResponse =
    timedOut && !isStoreFault(error)
      ? { success: false as const, code: 'SCRAPE_TIMEOUT' as const, error: deadline.timeoutMessage() }
      : toErrorResponse(error);
  // The model answers the page had before it failed were spent: `details.usage` carries them to the token count.
  if (llmUsage && llmUsage.totalTokens > 0 && (response.details === undefined || isRecord(response.details))) {
    response = { ...response, details: { ...response.details, usage: llmUsage } };
  }
  const outcome: PageScrapeOutcome = { success: false, error: response, status: httpStatusOf(response.code) };
  if (!deadline.timedOut && isFetchError(error) && error.dropped) outcome.dropped = true;
  return outcome;
}

function outcomeName(outcome: ScrapeOutcome | undefined): 'success' | 'failure' | 'deferred' | 'dropped' {
  if (!outcome) return 'failure';
  if ('kind' in outcome) return outcome.kind;
  return outcome.success ? 'success' : 'failure';
}

/** A scrape that no stage can defer (no job stages): its page's outcome. */
export async function scrapePage(
  ctx: EngineContext,
  request: PageScrapeRequest,
  context: PageScrapeContext,
): Promise<PageScrapeOutcome> {
  const outcome = await runScrape(ctx, request, context);
  if ('kind' in outcome) throw new CrawlkitError('UNKNOWN_ERROR', `A direct scrape ended ${outcome.kind}.`);
  return outcome;
}
