import { LISTENER_DEFAULTS } from '@crawlkit/options';
import type { Crawlkit, ErrorResponse } from 'crawlkit';

import { v2Error } from './respond.js';

const MIB = 1024 * 1024;

/** By default a store is asked to keep at most this share of its whole room free: a small one is not full when new. */
const SHARE_OF_TOTAL = 1 / 8;

/**
 * The room the store must have left, in bytes: `readyMinFreeMb` when the operator gave it; else 64 MiB, or an eighth
 * of the store's whole room when that is less (a 20 MiB disk, a Redis `maxmemory` of 32 MiB: they are not full new).
 */
export function roomRequired(readyMinFreeMb: number | undefined, totalBytes: number | undefined): number {
  if (readyMinFreeMb !== undefined) return readyMinFreeMb * MIB;
  const byDefault = LISTENER_DEFAULTS.readyMinFreeMb * MIB;
  return totalBytes === undefined ? byDefault : Math.min(byDefault, Math.floor(totalBytes * SHARE_OF_TOTAL));
}

/**
 * Whether the store can take work, as `GET /ready` and the admission of a crawl or batch both read it (one rule, so
 * that they agree): undefined when it can, else the v2 error: the store's own when it does not answer, `STORE_FULL`
 * when it has less room left than `roomRequired`.
 */
export async function storeUnready(
  crawlkit: Crawlkit,
  readyMinFreeMb: number | undefined,
): Promise<ErrorResponse | undefined> {
  const answer = await crawlkit.checkReady();
  if (!answer.success) return answer;
  if (answer.freeBytes === undefined) return undefined;
  const required = roomRequired(readyMinFreeMb, answer.totalBytes);
  if (required === 0 || answer.freeBytes >= required) return undefined;
  const mib = Number((required / MIB).toFixed(1));
  return v2Error(
    'STORE_FULL',
    `the store has less than ${mib} MiB of room left (the disk of its file, or Redis's maxmemory), and every page ` +
      'would fail to be stored. Free space, or lower readyMinFreeMb (--ready-min-free; 0: no check).',
  );
}
