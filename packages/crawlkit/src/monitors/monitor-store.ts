/**
 * Where a monitor keeps what its schedule does not: the monitor itself, its checks and the list of them, in the
 * store's history (so in the memory, SQLite and Redis stores alike), each the latest entry of its (id, tag), and the
 * list of checks numbered by the store's counters.
 */
import type { CounterStore, Store } from '@crawlkit/store';

import { monitorCheckCodec, monitorCheckSlotCodec, monitorCodec } from '../codec/monitor-records.js';
import { historyRecord } from '../codec/history-record.js';
import { CrawlkitError } from '../errors.js';
import { writeChunks } from './monitor-check-pages.js';

/** Checks listed at most per monitor (the oldest leave the list first). */
const MAX_CHECKS = 1_000;
const DAY_MS = 86_400_000;

export type MonitorValue = ReturnType<typeof monitorCodec.decode>;
export type MonitorCheckValue = ReturnType<typeof monitorCheckCodec.decode>;
export type MonitorCheckPage = NonNullable<NonNullable<MonitorCheckValue['closed']>['pages']>[number];

const monitors = historyRecord('crawlkit:monitor', monitorCodec);
const checks = historyRecord('crawlkit:monitor-check', monitorCheckCodec);
const slots = historyRecord('crawlkit:monitor-check-slot', monitorCheckSlotCodec);

export function readMonitor(store: Store, id: string): Promise<MonitorValue | undefined> {
  return monitors.read(store, id);
}

export function writeMonitor(store: Store, id: string, monitor: MonitorValue): Promise<void> {
  return monitors.write(store, id, monitor, monitor.updatedAt);
}

export function readCheck(store: Store, checkId: string): Promise<MonitorCheckValue | undefined> {
  return checks.read(store, checkId);
}

/** Writes a check; a closed one's `pages` go to their chunks first, the check keeping their counts. */
export async function writeCheck(store: Store, checkId: string, check: MonitorCheckValue): Promise<void> {
  const at = check.closed?.finishedAt ?? check.startedAt;
  if (!check.closed?.pages) return checks.write(store, checkId, check, at);
  const { pages, ...closed } = check.closed;
  const chunks = await writeChunks(store, checkId, pages, at);
  await checks.write(store, checkId, { ...check, closed: { ...closed, chunks } }, at);
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
    const entry = await slots.read(store, slotKey(monitorId, slot));
    if (!entry) continue;
    const { id, at } = entry;
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
  await slots.write(store, slotKey(monitorId, slot), { id: checkId, at }, at);
}
