import type { UrlPolicy } from '@crawlkit/fetcher';
import type { WorkQueue } from '@crawlkit/store';

import { policyToStore } from '../jobs/job-policy.js';

/**
 * What a worker runs with that decides which pages it may fetch: its own URL policy (`--url-policy`), which it
 * applies on top of each job's, as canonical JSON (keys sorted), so that equal policies compare equal.
 */
export function workerSettings(policy: Readonly<UrlPolicy>): string {
  const stored = policyToStore(policy) ?? {};
  const keys = Object.keys(stored).sort() as (keyof UrlPolicy)[];
  return JSON.stringify(Object.fromEntries(keys.map((key) => [key, stored[key]])));
}

/**
 * The warning for a worker whose settings differ from another live worker's, or undefined. A page that one worker's
 * policy refuses and another's allows fails or is stored by which worker takes it.
 */
export async function settingsWarning(queue: WorkQueue, mine: string): Promise<string | undefined> {
  const all = (await queue.consumerSettings?.().catch(() => undefined)) ?? [];
  const others = [...new Set(all.filter((settings) => settings !== mine))];
  if (others.length === 0) return undefined;
  return (
    `Another worker of this deployment runs with another URL policy (${others.join(', ')}; this one: ${mine}). Each worker applies its own policy on top of each job's, so a page one refuses fails ` +
    'URL_BLOCKED when it takes it and is stored when another does: start every worker with the same --url-policy.'
  );
}
