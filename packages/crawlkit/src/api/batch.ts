import { badRequest } from '../errors.js';
import { batchTasks, type StoredBatchRequest } from '../jobs/batch-planner.js';
import { jobAddress } from '../jobs/job-address.js';
import type { JobManager, StoredJob } from '../jobs/job-manager.js';
import { batchScrapeRequestSchema, type BatchScrapeRequestInput } from '../v2/jobs.js';
import { parseBody } from '../v2/parse.js';
import type { BatchScrapeResponse, ErrorResponse } from '../v2/types.js';
import { checkV2Url } from '../v2/url.js';

/**
 * `POST /v2/batch/scrape`. With `ignoreInvalidURLs: true` invalid URLs are dropped and listed in `invalidURLs`;
 * otherwise one invalid URL rejects the request and `invalidURLs` is absent.
 */
export async function startBatchScrape(
  jobs: JobManager,
  body: BatchScrapeRequestInput,
): Promise<BatchScrapeResponse | ErrorResponse> {
  const parsed = parseBody(batchScrapeRequestSchema, body);
  if (!parsed.ok) return parsed.error;
  const { urls, ignoreInvalidURLs, appendToId, ...rest } = parsed.value;

  const valid: { url: string; sourceURL: string }[] = [];
  const invalid: string[] = [];
  for (const [index, sourceURL] of urls.entries()) {
    const check = checkV2Url(sourceURL);
    if (check.ok) {
      valid.push({ url: check.url, sourceURL });
    } else if (ignoreInvalidURLs === true) {
      invalid.push(sourceURL);
    } else {
      return badRequest(`${check.message}: urls[${index}] (${JSON.stringify(sourceURL)})`, [
        { code: 'custom', path: ['urls', index], message: check.message },
      ]);
    }
  }
  if (valid.length === 0) return badRequest('No valid URLs provided');

  if (appendToId !== undefined) {
    const found = await jobs.find(appendToId.toLowerCase());
    if (!found || found.job.kind !== 'batch') {
      return { success: false, code: 'JOB_NOT_FOUND', error: 'Job not found' };
    }
    const { job, store } = found;
    const counts = await store.tasks.counts(job.id);
    const first = counts.queued + counts.active + counts.done + counts.failed;
    await store.tasks.add(job.id, batchTasks(valid, first));
    if (job.status !== 'scraping') await store.jobs.update(job.id, { status: 'scraping' });
    jobs.start({ ...job, status: 'scraping' }, store);
    return withInvalid({ success: true, id: job.id, url: jobAddress('batch', job.id) }, ignoreInvalidURLs, invalid);
  }

  const { webhook, ...request } = rest;
  const stored: StoredJob<StoredBatchRequest> = { request: { ...request } };
  if (webhook) stored.webhook = webhook;
  const job = await jobs.create({
    kind: 'batch',
    stored,
    tasks: batchTasks(valid, 0),
    zeroDataRetention: rest.zeroDataRetention,
  });
  return withInvalid({ success: true, id: job.id, url: jobAddress('batch', job.id) }, ignoreInvalidURLs, invalid);
}

function withInvalid(
  response: BatchScrapeResponse,
  ignore: boolean | undefined,
  invalid: string[],
): BatchScrapeResponse {
  if (ignore === true) response.invalidURLs = invalid;
  return response;
}
