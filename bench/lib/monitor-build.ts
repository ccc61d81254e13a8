/**
 * What the monitor benches' children load of the crawlkit build they measure (`<build>/packages/crawlkit/dist/index.js`):
 * its `Crawlkit`, its SQLite store and the monitor store's functions (the records a check's close writes and reads).
 */
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import type * as crawlkit from 'crawlkit';
import type * as crawlkitStore from '@crawlkit/store';

export interface MonitorStoreModule {
  readCheck(store: unknown, id: string): Promise<Record<string, unknown> & { closed?: unknown }>;
  writeCheck(store: unknown, id: string, check: unknown): Promise<void>;
  addCheck(store: unknown, monitorId: string, id: string, at: number): Promise<void>;
  readMonitor(store: unknown, id: string): Promise<{ meta: unknown[]; slots: number[] }>;
}

export async function loadMonitorBuild(entry: string) {
  const root = resolve(dirname(entry), '..', '..', '..');
  const url = (path: string) => pathToFileURL(path).href;
  const { Crawlkit } = (await import(url(entry))) as typeof crawlkit;
  const { createSqliteStore } = (await import(url(join(root, 'packages/store/dist/index.js')))) as typeof crawlkitStore;
  const monitorStore = (await import(url(join(dirname(entry), 'monitors/monitor-store.js')))) as MonitorStoreModule;
  return { Crawlkit, createSqliteStore, monitorStore };
}
