import { charged } from '../credits/charge.js';
import { pageCreditEstimate } from '../credits/estimate.js';
import type { Runtime } from '../runtime.js';
import { scrapePage } from '../scrape/run-scrape.js';
import { memoizedParser } from '../v2/parse-memo.js';
import { scrapeRequestSchema, type ScrapeRequestInput } from '../v2/scrape-options.js';
import type { ErrorResponse, ScrapeResponse } from '../v2/types.js';

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
  creditLimit?: number,
): Promise<ScrapeResponse | ErrorResponse> {
  const parsed = parseScrapeBody(body);
  if (!parsed.ok) return parsed.error;
  const request = parsed.value;
  const { ctx, queue, bus } = await ready();
  // Under a credit limit, the page's credits are reserved before it waits for a slot (issue 38).
  const outcome = await charged(
    ctx.store,
    creditLimit,
    pageCreditEstimate(request),
    () =>
      queue.add(
        () =>
          scrapePage(ctx, request, {
            sourceURL: (body as { url: string }).url,
            zeroDataRetention: request.zeroDataRetention,
            ...(signal ? { signal } : {}),
          }),
        signal ? { signal } : {},
      ),
    (done) => (done?.success ? done.credits : 0),
  );
  if (!outcome.success) {
    bus.pageFailed(undefined, request.url, outcome.error);
    return outcome.error;
  }
  bus.page(undefined, outcome.document);
  return { success: true, data: outcome.document };
}
