import type { Store } from '@crawlkit/store';

/**
 * What the durable stores (not `Store.ephemeral`) still hold in their outbox at the engine's close for `jobIds` (the
 * jobs this engine was sending), as the message of a warning naming how many events of which jobs wait, and why the
 * first of them is not delivered; undefined when there are none. They are not lost: the next engine on the store sends
 * them. A one-shot process (`crawlkit batch --webhook`) whose receiver failed would otherwise end without a word.
 */
export async function leftEvents(stores: readonly Store[], jobIds: ReadonlySet<string>): Promise<string | undefined> {
  if (jobIds.size === 0) return undefined;
  const outboxes = new Set(stores.flatMap((store) => (store.ephemeral ? [] : [store.deliveries])));
  const reads = [...outboxes].flatMap((outbox) => [...jobIds].map((jobId) => outbox.pending(jobId).catch(() => [])));
  const pending = (await Promise.all(reads)).flat();
  if (pending.length === 0) return undefined;
  const jobs = [...new Set(pending.map((delivery) => delivery.jobId))];
  const retrying = pending.filter((delivery) => delivery.attempts > 0);
  const named = jobs.slice(0, 5).join(', ') + (jobs.length > 5 ? ` and ${jobs.length - 5} more` : '');
  const lastError = retrying.find((delivery) => delivery.lastError)?.lastError;
  return (
    `${pending.length} webhook ${pending.length === 1 ? 'event was' : 'events were'} not delivered before close() ` +
    `(${retrying.length} waiting for a retry${lastError ? `, the last error: ${lastError}` : ''}), of ` +
    `${jobs.length === 1 ? 'job' : 'jobs'} ${named}. They stay in the store: the next engine on it (crawlkit serve, ` +
    'crawlkit resume, or any call of a Crawlkit on the same store) sends them, each when its retry is due.'
  );
}
