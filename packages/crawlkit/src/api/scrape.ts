import { randomUUID } from 'node:crypto';

import type { ScrapeCallOptions } from '../call-options.js';
import { callOf, charged } from '../credits/charge.js';
import { pageCreditEstimate } from '../credits/estimate.js';
import { jobInfo } from '../record/job-recording.js';
import type { Runtime } from '../runtime.js';
import { scrapePage } from '../scrape/run-scrape.js';
import { inSlotWithin } from '../scrape/slot-wait.js';
import { memoizedParser } from '../v2/parse-memo.js';
import { threatProtectionRefusal } from '../v2/threat-protection.js';
import { scrapeRequestSchema, type ScrapeRequestInput } from '../v2/scrape-options.js';
import type { ErrorResponse, ScrapeResponse } from '../v2/types.js';
import { keepScrape } from './scrape-results.js';

/** A repeated body is validated once (issue 21: a third of a cache hit was validation). */
const parseScrapeBody = memoizedParser(scrapeRequestSchema);

/**
 * `POST /v2/scrape`: validates the body, then scrapes the page in one of the engine's slots. A refused body never
 * starts the runtime (no store is opened).
 */
export async function scrape(
  ready: () => Promise<Runtime>,
  body: ScrapeRequestInput,
  signal: AbortSignal | undefined,
  options: Pick<ScrapeCallOptions, 'keepResult' | 'tenant' | 'creditLimit'> = {},
): Promise<ScrapeResponse | ErrorResponse> {
  const parsed = parseScrapeBody(body);
  if (!parsed.ok) return parsed.error;
  const request = parsed.value;
  const refused = threatProtectionRefusal(request.url, request.threatProtection);
  if (refused) return { success: false, code: 'URL_BLOCKED', error: `The URL is blocked: ${refused}.` };
  const { ctx: engineCtx, queue, bus } = await ready();
  const recordingId = request.record ? `scrape-${randomUUID()}` : undefined;
  if (recordingId) await engineCtx.recordings.prepare();
  const ctx = recordingId
    ? { ...engineCtx, recording: engineCtx.recordings.open(recordingId, jobInfo('scrape', request)) }
    : engineCtx;
  // Under a credit limit, the page's credits are reserved before it waits for a slot (issue 38).
  const outcome = await charged(
    ctx.store,
    callOf(options),
    pageCreditEstimate(request, ctx.fetcher),
    () =>
      inSlotWithin(queue, request.timeout, { signal, tenant: options.tenant }, (waited) =>
        scrapePage(ctx, request, {
          sourceURL: (body as { url: string }).url,
          zeroDataRetention: request.zeroDataRetention,
          ...(signal ? { signal } : {}),
          ...(waited >= 1 ? { spentMs: waited } : {}),
        }),
      ),
    (done) => (done?.success ? done.credits : 0),
    bus.warning,
  ).finally(() => (recordingId ? ctx.recordings.close(recordingId) : undefined));
  if (recordingId && outcome.success) outcome.document.metadata.warcFile = ctx.recordings.pathOf(recordingId);
  if (!outcome.success) {
    bus.pageFailed(undefined, request.url, outcome.error, options.tenant);
    // A page that failed after the site answered (an image, a binary file) is in the recording all the same.
    const recorded = recordingId && ctx.recording?.stats.responses ? ctx.recordings.pathOf(recordingId) : undefined;
    return recorded ? { ...outcome.error, warcFile: recorded } : outcome.error;
  }
  bus.page(undefined, outcome.document, options.tenant);
  if (options.keepResult && !request.zeroDataRetention) {
    // The page is the answer; the copy kept for `GET /v2/scrape/:id` is not worth losing it over (a store held by
    // another process's lock, a full disk).
    await keepScrape(ctx.store, outcome.document, options.tenant).catch((error: unknown) => {
      const note =
        `This scrape was not kept for GET /v2/scrape/${outcome.document.metadata.scrapeId ?? ''}, which will not ` +
        `find it: ${error instanceof Error ? error.message : String(error)}`;
      bus.warning('RESULT_NOT_KEPT', note);
      const { document } = outcome;
      document.warning = document.warning ? `${document.warning} ${note}` : note;
    });
  }
  return { success: true, data: outcome.document };
}
