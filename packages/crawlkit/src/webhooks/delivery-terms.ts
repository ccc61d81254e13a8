import type { UrlPolicy } from '@crawlkit/fetcher';
import { isStoreError, type SecretBox, type Store } from '@crawlkit/store';

import { storedJobOf } from '../codec/records.js';
import { storedUrlPolicy } from '../jobs/job-policy.js';
import type { OptionNames } from '../operator-words.js';
import type { StoredDelivery } from './payload.js';

/** What a job brings to the sending of its events, whichever process sends them. */
export interface DeliveryTerms {
  /** The job's URL policy, applied on top of the sending process's own. */
  policy: UrlPolicy | undefined;
  /** The job's webhook secret, still sealed; without it, the sending process's own secret signs the event. */
  sealedSecret: string | undefined;
  /** How the job's events name engine options; without it, the sending process's own `optionNames` apply. */
  optionNames: OptionNames | undefined;
}

/**
 * The terms of a delivery: recorded with it, or (for a delivery queued before they were) read from its job. A job
 * stored before they were recorded has none.
 */
export async function deliveryTerms(store: Store, jobId: string, stored: StoredDelivery): Promise<DeliveryTerms> {
  const { optionNames } = stored;
  if (stored.urlPolicy !== undefined && stored.secret !== undefined) {
    return { policy: stored.urlPolicy ?? undefined, sealedSecret: stored.secret ?? undefined, optionNames };
  }
  const job = await store.jobs.get(jobId);
  const policy = stored.urlPolicy !== undefined ? (stored.urlPolicy ?? undefined) : job && storedUrlPolicy(job);
  const sealedSecret =
    stored.secret !== undefined ? (stored.secret ?? undefined) : job && storedJobOf(job).webhookSecret;
  return { policy, sealedSecret, optionNames: optionNames ?? (job && storedJobOf(job).optionNames) };
}

/**
 * The job's webhook secret, opened; undefined when it has none, or when it cannot be opened here (sealed with a key
 * kept in the memory of the engine that started it, `persistSecrets: false`, or with another key): the sending
 * process's own secret then signs, as it did before jobs kept theirs.
 */
export function openSecret(sealed: string | undefined, box: SecretBox | undefined): string | undefined {
  if (sealed === undefined || !box) return sealed;
  try {
    return box.open(sealed);
  } catch (error) {
    if (isStoreError(error)) return undefined;
    throw error;
  }
}
