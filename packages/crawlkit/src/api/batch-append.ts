import { sortedJson } from '@crawlkit/options/sorted-json';
import { isStoreError, type SecretBox } from '@crawlkit/store';

import type { StoredJobOf } from '../codec/records.js';
import type { StoredBatchRequest } from '../jobs/batch-planner.js';
import { openJobSecrets } from '../jobs/job-secrets.js';
import type { BatchScrapeRequest } from '../v2/jobs.js';

/** The options of an `appendToId` request: its body without the URLs and how to take them. */
export type AppendedOptions = Omit<BatchScrapeRequest, 'urls' | 'ignoreInvalidURLs' | 'appendToId'>;

/** What the stored request keeps beside the options (the backlog of a long list), never compared. */
const NOT_OPTIONS: ReadonlySet<string> = new Set(['backlog', 'backlogZ', 'backlogFirst']);

/** Whether two option values say the same; `formats` in any order (each format gives its own field). */
function sameOption(key: string, a: unknown, b: unknown): boolean {
  if (key === 'formats' && Array.isArray(a) && Array.isArray(b)) {
    return sortedJson(a.map(sortedJson).sort()) === sortedJson(b.map(sortedJson).sort());
  }
  return sortedJson(a) === sortedJson(b);
}

/**
 * The options of an append that differ from those its batch was started with (both as the schema gave them, so
 * left-out options compare by their defaults; the batch's header values and webhook URL opened by `box`, as the store
 * keeps them sealed): the batch scrapes the appended URLs with its own, and the caller is told which of theirs were
 * not applied. Values this engine cannot open (sealed with another key) are told as differing.
 */
export function ignoredAppendOptions(
  sealed: Pick<StoredJobOf<StoredBatchRequest>, 'request' | 'webhook'>,
  appended: AppendedOptions,
  box: SecretBox,
): string[] {
  let batch = sealed;
  try {
    batch = openJobSecrets(sealed, box);
  } catch (error) {
    if (!isStoreError(error)) throw error;
  }
  const { webhook, ...options } = appended;
  const stored = batch.request as Record<string, unknown>;
  const given = options as Record<string, unknown>;
  const keys = new Set([...Object.keys(stored), ...Object.keys(given)].filter((key) => !NOT_OPTIONS.has(key)));
  const ignored = [...keys].filter((key) => !sameOption(key, stored[key], given[key])).sort();
  if (webhook !== undefined && !sameOption('webhook', batch.webhook, webhook)) ignored.push('webhook');
  return ignored;
}
