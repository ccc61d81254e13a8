import { randomUUID } from 'node:crypto';

import { checkUrlAgainstPolicy, redactUrl, type Fetcher, type UrlPolicy } from '@crawlkit/fetcher';

import type { Store } from '@crawlkit/store';

import type { JobStartOptions } from '../call-options.js';
import { storedJobOf } from '../codec/records.js';
import { creditLimitOf } from '../credits/charge.js';
import { pageCreditEstimate } from '../credits/estimate.js';
import { assertCreditsLeft, creditLedger } from '../credits/ledger.js';
import { badRequest } from '../errors.js';
import { nextTurn } from '../next-turn.js';
import {
  BATCH_FIRST_TASKS,
  batchTasks,
  packBacklog,
  type BatchUrl,
  type StoredBatchRequest,
} from '../jobs/batch-planner.js';
import { checkIdempotencyKey } from '../jobs/idempotency.js';
import { jobAddress } from '../jobs/job-address.js';
import type { JobManager, StoredJob } from '../jobs/job-manager.js';
import { visibleTo } from '../jobs/job-tenant.js';
import type { LlmService } from '../llm/llm-service.js';
import { batchScrapeRequestSchema, type BatchScrapeRequestInput } from '../v2/jobs.js';
import { parseBody } from '../v2/parse.js';
import type { Runtime } from '../runtime.js';
import type { BatchScrapeResponse, ErrorResponse } from '../v2/types.js';
import type { ThreatProtection } from '../v2/scrape-options.js';
import { threatProtectionRefusal } from '../v2/threat-protection.js';
import { checkV2Url } from '../v2/url.js';
import { featureNeedingModel } from '../formats/registry.js';
import { ignoredAppendOptions, type AppendedOptions } from './batch-append.js';

export interface BatchStartContext {
  jobs: JobManager;
  /** The engine's store: its credit ledger, under a `creditLimit`. */
  store?: Store;
  /** Refuses formats that need a model when none is configured, before the job exists. */
  llm?: LlmService;
  /** The engine's URL policy: a URL it refuses counts as invalid (reference §14's blocklist). */
  urlPolicy?: UrlPolicy;
  /** The engine's fetcher: whether it has a stealth proxy is what a stealth page is expected to cost. */
  fetcher: Pick<Fetcher, 'stealthProxies'>;
}

/** The start context of a batch in the engine of `rt`. */
export function batchContextOf(rt: Pick<Runtime, 'jobs' | 'ctx' | 'urlPolicy'>): BatchStartContext {
  const { jobs, ctx, urlPolicy } = rt;
  return { jobs, llm: ctx.llm, store: ctx.store, fetcher: ctx.fetcher, ...(urlPolicy ? { urlPolicy } : {}) };
}

/** URLs checked between two turns of the event loop. */
const URL_SLICE = 2_000;

/** What a batch refused for one URL adds when the request left `ignoreInvalidURLs` out. */
const DROP_HINT =
  'Fix or remove it, or send ignoreInvalidURLs: true to scrape the valid URLs and list the others in invalidURLs.';

type Checked = { ok: true; url: string } | { ok: false; blocked: boolean; message: string };

function checkBatchUrl(input: string, policy: UrlPolicy | undefined, threats: ThreatProtection | undefined): Checked {
  const check = checkV2Url(input);
  if (!check.ok) return { ok: false, blocked: false, message: check.message };
  const refused = threatProtectionRefusal(check.url, threats);
  if (refused) return { ok: false, blocked: true, message: `The URL is blocked: ${refused}` };
  if (policy) {
    try {
      checkUrlAgainstPolicy(check.url, policy);
    } catch (error) {
      return { ok: false, blocked: true, message: (error as Error).message };
    }
  }
  return check;
}

/**
 * `POST /v2/batch/scrape` (reference §14). With `ignoreInvalidURLs: true` invalid and policy-blocked URLs are
 * dropped and listed in `invalidURLs`; otherwise one invalid URL rejects the request with `BAD_REQUEST` (a blocked
 * one with `URL_BLOCKED`), and a created batch answers `invalidURLs: []` when the flag was omitted and no
 * `invalidURLs` when it was `false`.
 */
export async function startBatchScrape(
  context: BatchStartContext,
  body: BatchScrapeRequestInput,
  start: Pick<JobStartOptions, 'baseUrl' | 'idempotencyKey' | 'tenant' | 'creditLimit'> = {},
): Promise<BatchScrapeResponse | ErrorResponse> {
  const parsed = parseBody(batchScrapeRequestSchema, body);
  if (!parsed.ok) return parsed.error;
  if (start.idempotencyKey !== undefined) checkIdempotencyKey(start.idempotencyKey);
  const feature = featureNeedingModel(parsed.value.formats, parsed.value.zeroDataRetention);
  if (feature) context.llm?.assertModel(feature);
  const { urls, ignoreInvalidURLs, appendToId, ...rest } = parsed.value;
  const lenient = ignoreInvalidURLs === true;
  // The whole list is refused for one URL: say how to keep the rest, unless the caller asked for that with `false`.
  const orDrop = ignoreInvalidURLs === undefined ? `. ${DROP_HINT}` : '';

  const valid: BatchUrl[] = [];
  const invalid: string[] = [];
  for (const [index, sourceURL] of urls.entries()) {
    // A long list is checked in slices: other requests are answered in between (a 280,000-URL body took 280 ms).
    if (index % URL_SLICE === URL_SLICE - 1) await nextTurn();
    const check = checkBatchUrl(sourceURL, context.urlPolicy, rest.threatProtection);
    if (check.ok) {
      valid.push({ url: check.url, sourceURL });
    } else if (lenient) {
      invalid.push(redactUrl(sourceURL));
    } else if (check.blocked) {
      return { success: false, code: 'URL_BLOCKED', error: `${check.message} (urls[${index}])${orDrop}` };
    } else {
      return badRequest(`${check.message}: urls[${index}] (${JSON.stringify(redactUrl(sourceURL))})${orDrop}`, [
        { code: 'custom', path: ['urls', index], message: check.message },
      ]);
    }
  }
  if (valid.length === 0) return badRequest('No valid URLs provided');
  const creditLimit = creditLimitOf(start);
  if (creditLimit !== undefined && context.store) {
    // Refused at once when its pages cannot all be paid for; they reserve their credits one by one as they run.
    const perPage = pageCreditEstimate(rest, context.fetcher);
    await assertCreditsLeft(creditLedger(context.store, start.tenant), creditLimit, perPage * valid.length);
  }

  const respond = (id: string): BatchScrapeResponse => {
    const response: BatchScrapeResponse = {
      success: true,
      id,
      url: jobAddress('batch', id, undefined, start.baseUrl),
    };
    // §14: the schema defaults the flag to true, so an omitted flag still answers an (empty) list.
    if (ignoreInvalidURLs !== false) response.invalidURLs = invalid;
    return response;
  };

  if (appendToId !== undefined) {
    return appendToBatch(context.jobs, appendToId.toLowerCase(), valid, rest, respond, start.tenant);
  }

  const { webhook, ...options } = rest;
  // A long list: the first URLs become task rows now, the rest is stored with the job in one value and moved to the
  // task table by the runner (see `addBacklog`), so that the call answers fast.
  const request: StoredBatchRequest =
    valid.length > BATCH_FIRST_TASKS
      ? {
          ...options,
          backlogZ: await packBacklog(valid.slice(BATCH_FIRST_TASKS).map((u) => u.sourceURL)),
          backlogFirst: BATCH_FIRST_TASKS,
        }
      : options;
  const stored: StoredJob<StoredBatchRequest> = {
    ...(start.tenant !== undefined ? { tenant: start.tenant } : {}),
    request,
  };
  if (webhook) stored.webhook = webhook;
  if (creditLimit !== undefined) stored.creditLimit = creditLimit;
  const job = await context.jobs.create({
    kind: 'batch',
    stored,
    tasks: batchTasks(valid.slice(0, BATCH_FIRST_TASKS)),
    urls: valid.length,
    zeroDataRetention: rest.zeroDataRetention,
    idempotencyKey: start.idempotencyKey,
  });
  return respond(job.id);
}

/**
 * `appendToId`: adds the URLs to an existing batch (running or finished) and runs it again until they are done. The
 * batch keeps the options it was started with: the answer's `warning` names those of this request that differ.
 */
async function appendToBatch(
  jobs: JobManager,
  id: string,
  urls: readonly BatchUrl[],
  options: AppendedOptions,
  respond: (id: string) => BatchScrapeResponse,
  tenant: string | undefined,
): Promise<BatchScrapeResponse | ErrorResponse> {
  const found = await jobs.find(id);
  if (!found || found.job.kind !== 'batch' || !visibleTo(found.job, tenant))
    return { success: false, code: 'JOB_NOT_FOUND', error: 'Job not found' };
  const { job, store } = found;
  const ignored = ignoredAppendOptions(storedJobOf<StoredBatchRequest>(job), options, jobs.secretsOf(store));
  if (job.status === 'cancelled') {
    return { success: false, code: 'JOB_CANCELLED', error: 'The batch was cancelled; start a new batch instead.' };
  }
  // Keys unique to this append, so they never collide with earlier (possibly dropped) tasks of the job.
  await store.tasks.add(job.id, batchTasks(urls, randomUUID()));
  if (job.status !== 'scraping') {
    await store.jobs.update(job.id, {
      status: 'scraping',
      completedAt: undefined,
      expiresAt: undefined,
      error: undefined,
    });
  }
  const { completedAt: _c, expiresAt: _e, error: _r, ...reopened } = job;
  jobs.start({ ...reopened, status: 'scraping' }, store);
  const response = respond(job.id);
  if (ignored.length) {
    response.warning =
      `The batch goes on with the options it was started with: this request's ${ignored.map((k) => `\`${k}\``).join(', ')} ` +
      'differ and were not applied to its URLs. Start a new batch to scrape with other options.';
  }
  return response;
}
