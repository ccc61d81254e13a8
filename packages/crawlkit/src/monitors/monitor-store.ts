/**
 * Where a monitor keeps what its schedule does not: the monitor itself, its checks and the list of them, in the
 * store's history (so in the memory, SQLite and Redis stores alike), each the latest entry of its (id, tag).
 */
import type { Store } from '@crawlkit/store';

import { monitorCheckCodec, monitorCheckIndexCodec, monitorCodec } from '../codec/records.js';

const MONITOR_TAG = 'crawlkit:monitor';
const CHECK_TAG = 'crawlkit:monitor-check';
const INDEX_TAG = 'crawlkit:monitor-checks';

/** Checks listed at most per monitor (the oldest leave the list first). */
const MAX_CHECKS = 1_000;
const DAY_MS = 86_400_000;

export type MonitorValue = ReturnType<typeof monitorCodec.decode>;
export type MonitorCheckValue = ReturnType<typeof monitorCheckCodec.decode>;

export async function readMonitor(store: Store, id: string): Promise<MonitorValue | undefined> {
  const entry = await store.history.latest(id, MONITOR_TAG);
  return entry ? monitorCodec.decode(entry.value) : undefined;
}

export async function writeMonitor(store: Store, id: string, monitor: MonitorValue): Promise<void> {
  await store.history.append({
    url: id,
    tag: MONITOR_TAG,
    scrapedAt: monitor.updatedAt,
    value: monitorCodec.encode(monitor),
  });
}

export async function readCheck(store: Store, checkId: string): Promise<MonitorCheckValue | undefined> {
  const entry = await store.history.latest(checkId, CHECK_TAG);
  return entry ? monitorCheckCodec.decode(entry.value) : undefined;
}

export async function writeCheck(store: Store, checkId: string, check: MonitorCheckValue): Promise<void> {
  await store.history.append({
    url: checkId,
    tag: CHECK_TAG,
    scrapedAt: check.closed?.finishedAt ?? check.startedAt,
    value: monitorCheckCodec.encode(check),
  });
}

/** When the oldest check a monitor still lists started (epoch ms): `retentionDays` ago. */
export function keptSince(retentionDays: number): number {
  return Date.now() - retentionDays * DAY_MS;
}

/** The monitor's checks within its retention, newest first. */
export async function listChecks(store: Store, monitorId: string, retentionDays: number): Promise<string[]> {
  const entry = await store.history.latest(monitorId, INDEX_TAG);
  if (!entry) return [];
  const since = keptSince(retentionDays);
  return monitorCheckIndexCodec
    .decode(entry.value)
    .checks.filter((c) => c.at >= since)
    .map((c) => c.id);
}

/** Each process adds to a monitor's list one check at a time. */
const adding = new Map<string, Promise<void>>();

/** Adds a check to the monitor's list (once: a check already listed is not added again). */
export function addCheck(store: Store, monitorId: string, checkId: string, at: number): Promise<void> {
  const previous = adding.get(monitorId) ?? Promise.resolve();
  const next = previous.then(async () => {
    const entry = await store.history.latest(monitorId, INDEX_TAG);
    const checks = entry ? monitorCheckIndexCodec.decode(entry.value).checks : [];
    if (checks.some((c) => c.id === checkId)) return;
    const kept = [{ id: checkId, at }, ...checks].slice(0, MAX_CHECKS);
    await store.history.append({
      url: monitorId,
      tag: INDEX_TAG,
      scrapedAt: Date.now(),
      value: monitorCheckIndexCodec.encode({ checks: kept }),
    });
  });
  const settled = next.catch(() => undefined);
  adding.set(monitorId, settled);
  void settled.then(() => {
    if (adding.get(monitorId) === settled) adding.delete(monitorId);
  });
  return next;
}
