import { checkUrlAgainstPolicy } from '@crawlkit/fetcher';

import type { JobStartOptions } from '../call-options.js';
import type { EngineContext } from '../context.js';
import { creditLimitOf } from '../credits/charge.js';
import { pageCreditEstimate } from '../credits/estimate.js';
import { creditLedger, pagesWithinCredits } from '../credits/ledger.js';
import { toErrorResponse } from '../errors.js';
import { crawlKey } from '../jobs/crawl-planner.js';
import { checkIdempotencyKey, idempotentJobId, keyReusedError } from '../jobs/idempotency.js';
import { jobAddress } from '../jobs/job-address.js';
import type { JobManager, StoredJob } from '../jobs/job-manager.js';
import { applyCrawlPrompt } from '../llm/crawl-prompt.js';
import { crawlRequestSchema, type CrawlRequest, type CrawlRequestInput } from '../v2/jobs.js';
import { parseBody } from '../v2/parse.js';
import { threatProtectionRefusal } from '../v2/threat-protection.js';
import type { CrawlResponse, ErrorResponse } from '../v2/types.js';
import { featureNeedingModel } from '../formats/registry.js';

/** `POST /v2/crawl`: validates, creates the job with its seed and returns at once; the crawl runs in the background. */
export async function startCrawl(
  ctx: EngineContext,
  jobs: JobManager,
  body: CrawlRequestInput,
  start: Pick<JobStartOptions, 'baseUrl' | 'idempotencyKey' | 'tenant' | 'creditLimit'> = {},
): Promise<CrawlResponse | ErrorResponse> {
  const parsed = parseBody(crawlRequestSchema, body);
  if (!parsed.ok) return parsed.error;
  const refused = threatProtectionRefusal(parsed.value.url, parsed.value.scrapeOptions.threatProtection);
  if (refused) return { success: false, code: 'URL_BLOCKED', error: `The URL is blocked: ${refused}.` };
  try {
    // The seed is refused here, as batch, scrape and map URLs are, before a job exists (`URL_BLOCKED`).
    checkUrlAgainstPolicy(parsed.value.url, ctx.fetcher.urlPolicy);
  } catch (error) {
    return toErrorResponse(error);
  }
  const feature = featureNeedingModel(parsed.value.scrapeOptions.formats, parsed.value.zeroDataRetention);
  if (feature) ctx.llm.assertModel(feature);
  const key = start.idempotencyKey;
  if (key !== undefined) {
    checkIdempotencyKey(key);
    // Before the prompt's model call: a reused key costs nothing.
    if (await jobs.find(idempotentJobId(key, start.tenant))) throw keyReusedError();
  }
  // A prompt becomes crawler options (the caller's own options win); the response shows both.
  const prompted = await applyCrawlPrompt(ctx, body, parsed.value);
  if (prompted && 'success' in prompted) return prompted;
  const { webhook, ...request } = prompted?.request ?? parsed.value;

  const stored: StoredJob<CrawlRequest> = {
    ...(start.tenant !== undefined ? { tenant: start.tenant } : {}),
    request,
    seedAwaited: true,
  };
  if (webhook) stored.webhook = webhook;
  const creditLimit = creditLimitOf(start);
  if (creditLimit !== undefined) {
    // As upstream: a crawl's `limit` is lowered to the pages the credits left pay for; its pages reserve them as
    // they go.
    const perPage = pageCreditEstimate(
      { ...request.scrapeOptions, zeroDataRetention: request.zeroDataRetention },
      ctx.fetcher,
    );
    request.limit = await pagesWithinCredits(
      creditLedger(ctx.store, start.tenant),
      creditLimit,
      perPage,
      request.limit,
    );
    stored.creditLimit = creditLimit;
  }
  const job = await jobs.create({
    kind: 'crawl',
    stored,
    tasks: [{ key: crawlKey(request.url, request), url: request.url, depth: 0 }],
    zeroDataRetention: request.zeroDataRetention,
    idempotencyKey: key,
  });
  const response: CrawlResponse = {
    success: true,
    id: job.id,
    url: jobAddress('crawl', job.id, undefined, start.baseUrl),
  };
  if (prompted) {
    response.promptGeneratedOptions = { ...prompted.promptGeneratedOptions };
    response.finalCrawlerOptions = prompted.finalCrawlerOptions;
  }
  return response;
}
