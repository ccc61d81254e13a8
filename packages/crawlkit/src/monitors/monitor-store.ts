/**
 * Where a monitor keeps what its schedule does not: the monitor itself, its checks and the list of them, in the
 * store's history (so in the memory, SQLite and Redis stores alike), each the latest entry of its (id, tag), and the
 * list of checks numbered by the store's counters.
 */
import type { CounterStore, Store } from '@crawlkit/store';

import { monitorCheckCodec, monitorCheckSlotCodec, monitorCodec } from '../codec/monitor-records.js';
import { CrawlkitError } from '../errors.js';

const MONITOR_TAG = 'crawlkit:monitor';
const CHECK_TAG = 'crawlkit:monitor-check';
const SLOT_TAG = 'crawlkit:monitor-check-slot';

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

/** The store's counters, which number a monitor's checks. */
export function monitorCounters(store: Store): CounterStore {
  if (!store.counters) {
    throw new CrawlkitError(
      'SCHEDULES_UNSUPPORTED',
      `The store given to crawlkit (${store.kind}) keeps no counters, which monitors number their checks with.`,
    );
  }
  return store.counters;
}

const slotCounter = (monitorId: string) => `monitor-checks:${monitorId}`;
const slotKey = (monitorId: string, slot: number) => `${monitorId}#${slot}`;

/**
 * The monitor's checks within its retention, newest first (the last `MAX_CHECKS` added), read as they are asked for.
 * A slot numbered but not yet written (its check being added) is passed over.
 */
export async function* listChecks(store: Store, monitorId: string, retentionDays: number): AsyncGenerator<string> {
  const last = await monitorCounters(store).get(slotCounter(monitorId));
  const since = keptSince(retentionDays);
  const seen = new Set<string>();
  for (let slot = last; slot > Math.max(0, last - MAX_CHECKS); slot--) {
    const entry = await store.history.latest(slotKey(monitorId, slot), SLOT_TAG);
    if (!entry) continue;
    const { id, at } = monitorCheckSlotCodec.decode(entry.value);
    if (at < since || seen.has(id)) continue;
    seen.add(id);
    yield id;
  }
}

/**
 * Adds a check to the monitor's list: the store's counter gives it a slot of its own (atomically across processes),
 * so checks added at once by several processes are all listed.
 */
export async function addCheck(store: Store, monitorId: string, checkId: string, at: number): Promise<void> {
  const slot = (await monitorCounters(store).add(slotCounter(monitorId), 1))!;
  await store.history.append({
    url: slotKey(monitorId, slot),
    tag: SLOT_TAG,
    scrapedAt: at,
    value: monitorCheckSlotCodec.encode({ id: checkId, at }),
  });
}
