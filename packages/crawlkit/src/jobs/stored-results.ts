/**
 * A job's stored results as the code that reads all of them after the job (change feeds, monitor checks) needs them.
 */
import type { JobError, Store } from '@crawlkit/store';

import { decodeDocument } from '../codec/records.js';
import { nextTurn } from '../next-turn.js';
import type { Document } from '../v2/types.js';

/** Results read at once. */
const RESULTS_PER_READ = 500;

/**
 * Each stored document of the job (with its result key), decoded, in completion order; other work runs between reads.
 */
export async function* storedDocuments(
  store: Store,
  jobId: string,
): AsyncGenerator<{ key: string; document: Document }> {
  for (let skip = 0; ; skip += RESULTS_PER_READ) {
    const results = await store.results.list(jobId, skip, RESULTS_PER_READ);
    for (const { key, document } of results) yield { key, document: decodeDocument(document) };
    if (results.length < RESULTS_PER_READ) break;
    await nextTurn();
  }
}

/** The job's failed pages: its errors without the webhook events it gave up, which are kept there too. */
export async function failedPages(store: Store, jobId: string): Promise<JobError[]> {
  return (await store.results.errors(jobId)).filter((failed) => failed.code !== 'WEBHOOK_DELIVERY_FAILED');
}
