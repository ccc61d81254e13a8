import type { UrlPolicy } from '@crawlkit/fetcher';
import type { WorkQueue } from '@crawlkit/store';
import { sortedJson } from '@crawlkit/options/sorted-json';

import { VERSION } from '../cli/version.js';
import { policyToStore } from '../jobs/job-policy.js';

/** What a worker runs with that must be alike in every worker of a deployment. */
export interface WorkerSettings {
  /** Its own URL policy (`--url-policy`), which it applies on top of each job's. */
  urlPolicy: Readonly<UrlPolicy>;
  /** Whether its store indexes the pages and results it writes (`--no-redis-search-index` turns it off). */
  searchIndex: boolean;
  /**
   * How long its queue holds a running page's lock (`--task-lock-ms`, `redis({ taskLockMs })`); unset when its queue
   * does not say.
   */
  taskLockMs?: number;
  /** @default the crawlkit package's version */
  version?: string;
}

/** The settings as compared: each part as canonical JSON (keys sorted), so that equal settings compare equal. */
interface Compared {
  urlPolicy: string;
  /** Undefined for a worker of a version before the search index was compared. */
  searchIndex?: boolean;
  /** Undefined for a worker of a version before locks were compared, or whose queue does not say. */
  taskLockMs?: number;
  /** Undefined for a worker of a version before versions were compared. */
  version?: string;
}

/** The presence settings of a worker, as canonical JSON: `{ searchIndex, taskLockMs, urlPolicy, version }`. */
export function workerSettings(settings: WorkerSettings): string {
  const policy = (policyToStore(settings.urlPolicy) ?? {}) as Record<string, unknown>;
  return JSON.stringify({
    searchIndex: settings.searchIndex,
    ...(settings.taskLockMs !== undefined ? { taskLockMs: settings.taskLockMs } : {}),
    urlPolicy: JSON.parse(sortedJson(policy)) as unknown,
    version: settings.version ?? VERSION,
  });
}

/** A live worker's settings; an older worker's are its URL policy alone. Undefined for what cannot be read. */
function parse(settings: string): Compared | undefined {
  let value: unknown;
  try {
    value = JSON.parse(settings);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.version !== 'string') return { urlPolicy: sortedJson(record) };
  const policy = typeof record.urlPolicy === 'object' && record.urlPolicy !== null ? record.urlPolicy : {};
  return {
    urlPolicy: sortedJson(policy),
    version: record.version,
    ...(typeof record.searchIndex === 'boolean' ? { searchIndex: record.searchIndex } : {}),
    ...(typeof record.taskLockMs === 'number' ? { taskLockMs: record.taskLockMs } : {}),
  };
}

const distinct = (values: string[]) => [...new Set(values)].join(', ');

/**
 * The warnings for a worker whose settings differ from other live workers' (one for each setting that differs). A
 * page that one worker's policy refuses and another's allows fails or is stored by which worker takes it; a page a
 * worker without the index stores is missing from local search; workers of different versions may not agree on what
 * they write to the store; a killed worker's pages and job slots are taken over once its own lock lapses.
 */
export async function settingsWarnings(queue: WorkQueue, mine: string): Promise<string[]> {
  const own = parse(mine);
  if (!own) return [];
  const all = (await queue.consumerSettings?.().catch(() => undefined)) ?? [];
  const others = all.map(parse).filter((settings) => settings !== undefined);
  const warnings: string[] = [];
  const versions = others.filter((other) => other.version !== own.version);
  if (versions.length > 0) {
    const theirs = distinct(versions.map((other) => other.version ?? 'an older one, which does not say'));
    warnings.push(
      `Another worker of this deployment runs another version of crawlkit (${theirs}; this one: ${own.version}). ` +
        `Workers of different versions may not agree on what they write to the store: upgrade every worker (and serve) to the same version, the newest (npm install crawlkit@latest), and restart them.`,
    );
  }
  const policies = others.filter((other) => other.urlPolicy !== own.urlPolicy);
  if (policies.length > 0) {
    warnings.push(
      `Another worker of this deployment runs with another URL policy (${distinct(policies.map((other) => other.urlPolicy))}; this one: ${own.urlPolicy}). Each worker applies its own policy on top of each job's, so a page one refuses fails ` +
        'URL_BLOCKED when it takes it and is stored when another does: start every worker with the same --url-policy.',
    );
  }
  const index = others.filter((other) => other.searchIndex !== undefined && other.searchIndex !== own.searchIndex);
  if (index.length > 0) {
    const state = (on: boolean | undefined) => (on ? 'with the search index' : 'without the search index');
    warnings.push(
      `Another worker of this deployment runs ${state(!own.searchIndex)} (this one: ${state(own.searchIndex)}). ` +
        'The pages a worker without it stores are missing from local search, and the index costs the others ~3 ms of ' +
        'Redis a page: start every worker (and serve) alike, all with --no-redis-search-index or none.',
    );
  }
  const locks = others.filter(
    (other) => other.taskLockMs !== undefined && own.taskLockMs !== undefined && other.taskLockMs !== own.taskLockMs,
  );
  if (locks.length > 0) {
    warnings.push(
      `Another worker of this deployment holds a running page's lock for another time (${distinct(locks.map((other) => `${other.taskLockMs} ms`))}; this one: ${own.taskLockMs} ms). ` +
        "A killed worker's pages and job slots are taken over once its own lock lapses, so the takeover time depends on " +
        'which worker died: start every worker with the same --task-lock-ms (redis({ taskLockMs })).',
    );
  }
  return warnings;
}
