/** The one writer of a job's stored envelope (`StoredJobEnvelope`) once the job has started. */
import type { Store } from '@crawlkit/store';

import { storedJobCodec, storedJobOf, type StoredJobOf } from '../codec/records.js';

/**
 * Changes the job's stored envelope from what the store holds now: `change` gets the current envelope and returns the
 * new one, or undefined to leave it as it is. Several processes write a crawl's envelope (the frontier notes of the
 * one preparing it, the seed's landing of the one that fetched the seed), each a field of its own: the write is a
 * compare-and-set (`JobStore.replaceRequest`), and when another process wrote between the read and the write, the
 * envelope is read again and `change` runs on that. Nothing for a job that is gone.
 */
export async function changeStoredJob<R extends object>(
  store: Store,
  jobId: string,
  change: (stored: StoredJobOf<R>) => StoredJobOf<R> | undefined,
): Promise<void> {
  // Each refused write means another writer's went through: a job has a few writers, each writing once or twice.
  for (;;) {
    const current = await store.jobs.get(jobId);
    if (!current) return;
    const next = change(storedJobOf<R>(current));
    if (next === undefined) return;
    if (await store.jobs.replaceRequest(jobId, current.request, storedJobCodec.encode(next))) return;
  }
}
