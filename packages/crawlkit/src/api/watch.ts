import { ABORTED_MESSAGE, CLOSED_UNDER_CALL, signalOf, type WatchOptions } from '../call-options.js';
import { CrawlkitError, isCrawlkitError } from '../errors.js';
import { INVALID_JOB_ID, parseJobReference } from '../jobs/job-address.js';
import type { Runtime } from '../runtime.js';
import type { Document } from '../v2/types.js';
import { jobVisible } from './job-queries.js';

/**
 * `Crawlkit.watch`: each document of a crawl or batch as it is stored (past the first `skip`), until the job has
 * finished. Throws, being an
 * async iterator, what every other call answers: `BAD_REQUEST`, `JOB_NOT_FOUND`, `ABORTED`, `ENGINE_CLOSED`.
 */
export async function* watchJob(
  id: string,
  init: WatchOptions,
  runtime: () => Promise<Runtime>,
  closed: () => boolean,
): AsyncGenerator<Document, void, undefined> {
  const ref = parseJobReference(id);
  if (!ref) throw new CrawlkitError('BAD_REQUEST', INVALID_JOB_ID);
  const signal = signalOf(init, ['skip']);
  const skip = init?.skip ?? 0;
  if (!Number.isSafeInteger(skip) || skip < 0) {
    throw new CrawlkitError(
      'BAD_REQUEST',
      `\`skip\` must be a whole number of documents, 0 or more; got ${String(skip)}.`,
    );
  }
  const rt = await runtime();
  if (!(await jobVisible(rt.jobs, ref.id, init?.tenant))) throw new CrawlkitError('JOB_NOT_FOUND', 'Job not found');
  try {
    yield* rt.jobs.watch(ref.id, signal, skip);
  } catch (error) {
    throw watchError(error, signal, closed());
  }
}

/**
 * What `watch()` throws for what stopped it: `ABORTED` when its signal aborted (not the signal's DOMException, whose
 * `code` is a number), `ENGINE_CLOSED` when `close()` closed the store under it (not the store's `STORE_CLOSED`: the
 * caller used nothing after closing), else the error itself.
 */
function watchError(error: unknown, signal: AbortSignal | undefined, closed: boolean): unknown {
  if (signal?.aborted) return new CrawlkitError('ABORTED', ABORTED_MESSAGE, { cause: error });
  if (closed && !isCrawlkitError(error)) return new CrawlkitError('ENGINE_CLOSED', CLOSED_UNDER_CALL, { cause: error });
  return error;
}
