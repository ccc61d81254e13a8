/**
 * Where a monitor keeps what its schedule does not: the monitor itself, its checks and the list of them, in the
 * store's history (so in the memory, SQLite and Redis stores alike), each the latest entry of its (id, tag), and the
 * list of checks numbered by the store's counters.
 */
import type { CounterStore, Store } from '@crawlkit/store';

import {
  monitorCheckCodec,
  monitorCheckFloorCodec,
  monitorCheckSlotCodec,
  monitorCodec,
} from '../codec/monitor-records.js';
import { historyRecord } from '../codec/history-record.js';
import { CrawlkitError } from '../errors.js';
import { deleteChunks, writeChunks } from './monitor-check-pages.js';

/** Checks listed at most per monitor (the oldest leave the list first). */
const MAX_CHECKS = 1_000;
const DAY_MS = 86_400_000;

export type MonitorValue = ReturnType<typeof monitorCodec.decode>;
export type MonitorCheckValue = ReturnType<typeof monitorCheckCodec.decode>;
export type MonitorCheckPage = NonNullable<NonNullable<MonitorCheckValue['closed']>['pages']>[number];

const monitors = historyRecord('crawlkit:monitor', monitorCodec);
const checks = historyRecord('crawlkit:monitor-check', monitorCheckCodec);
const slots = historyRecord('crawlkit:monitor-check-slot', monitorCheckSlotCodec);
const floors = historyRecord('crawlkit:monitor-check-floor', monitorCheckFloorCodec);

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
 * so checks added at once by several processes are all listed. The checks that have left the list then leave the
 * store (`sweepChecks`).
 */
export async function addCheck(
  store: Store,
  monitorId: string,
  checkId: string,
  at: number,
  retentionDays: number,
): Promise<void> {
  const slot = (await monitorCounters(store).add(slotCounter(monitorId), 1))!;
  await slots.write(store, slotKey(monitorId, slot), { id: checkId, at }, at);
  await sweepChecks(store, monitorId, slot, keptSince(retentionDays));
}

/**
 * Deletes, oldest first, the checks (with their pages) and slots that have left the monitor's list: started before
 * `since` (its `retentionDays`), or beyond its last `MAX_CHECKS`. Stops at the first check kept, and at a listed slot
 * not written yet (a check another process is adding); the slot it stopped at is kept as the monitor's floor, where
 * the next sweep starts. Nothing is deleted in a store whose history cannot delete.
 */
async function sweepChecks(store: Store, monitorId: string, last: number, since: number): Promise<void> {
  if (!store.history.delete) return;
  const floor = (await floors.read(store, monitorId))?.slot ?? 1;
  let slot = floor;
  for (; slot < last; slot++) {
    const entry = await slots.read(store, slotKey(monitorId, slot));
    if (slot > last - MAX_CHECKS && (!entry || entry.at >= since)) break;
    if (entry) await deleteCheck(store, entry.id);
    await slots.delete(store, slotKey(monitorId, slot));
  }
  if (slot > floor) await floors.write(store, monitorId, { slot }, Date.now());
}

/** Deletes a check and its pages. */
async function deleteCheck(store: Store, checkId: string): Promise<void> {
  const check = await checks.read(store, checkId);
  await deleteChunks(store, checkId, check?.closed?.chunks?.length ?? 0);
  await checks.delete(store, checkId);
}

/** Deletes a monitor's record, its checks with their pages, and its list of them (its schedule is deleted apart). */
export async function deleteMonitorRecords(store: Store, monitorId: string): Promise<void> {
  const last = (await store.counters?.get(slotCounter(monitorId))) ?? 0;
  const floor = (await floors.read(store, monitorId))?.slot ?? 1;
  for (let slot = floor; slot <= last; slot++) {
    const entry = await slots.read(store, slotKey(monitorId, slot));
    if (entry) await deleteCheck(store, entry.id);
    await slots.delete(store, slotKey(monitorId, slot));
  }
  await floors.delete(store, monitorId);
  await monitors.delete(store, monitorId);
}

/** Deletes the change-tracking snapshots kept under each tag (a store without `deleteTag` keeps them). */
export async function deleteHistories(store: Store, tags: readonly string[]): Promise<void> {
  if (!store.history.deleteTag) return;
  for (const tag of tags) await store.history.deleteTag(tag);
}
