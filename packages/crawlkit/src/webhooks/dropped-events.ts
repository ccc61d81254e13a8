import type { Store } from '@crawlkit/store';

/**
 * What the stores that end with the engine (`Store.ephemeral`: memory) still hold in their outbox at its close, as
 * the message of a warning naming how many events of which jobs are lost; undefined when there are none.
 */
export async function droppedEvents(stores: readonly Store[]): Promise<string | undefined> {
  // A store of pages only shares the memory store's outbox.
  const outboxes = new Set(stores.flatMap((store) => (store.ephemeral ? [store.deliveries] : [])));
  const pending = (await Promise.all([...outboxes].map((outbox) => outbox.pending().catch(() => [])))).flat();
  if (pending.length === 0) return undefined;
  const jobs = [...new Set(pending.map((delivery) => delivery.jobId))];
  const retrying = pending.filter((delivery) => delivery.attempts > 0).length;
  const named = jobs.slice(0, 5).join(', ') + (jobs.length > 5 ? ` and ${jobs.length - 5} more` : '');
  return (
    `${pending.length} webhook ${pending.length === 1 ? 'event was' : 'events were'} not delivered before close() ` +
    `(${retrying} waiting for a retry), of ${jobs.length === 1 ? 'job' : 'jobs'} ${named}: their outbox was in ` +
    "memory (store: 'memory', a store of pages only, or zeroDataRetention), which ends with the engine. A store on " +
    'disk keeps them for the next engine.'
  );
}
