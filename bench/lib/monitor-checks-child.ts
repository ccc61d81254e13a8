/**
 * One measurement of `bench/monitor-checks.ts`, in a process of its own (run with `--expose-gc`): a check of `pages`
 * pages closed in the on-disk store of the crawlkit build `entry` (its `writeCheck`, what a check's close calls), then
 * pages of its detail read through `ck.monitors.check` (what `GET /v2/monitor/:id/checks/:checkId` calls). Prints one
 * JSON line: wall and CPU ms, the largest record written and the bytes of records read, heap before and after.
 *
 *   node --expose-gc bench/lib/monitor-checks-child.ts <crawlkit dist/index.js> <pages>
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadMonitorBuild } from './monitor-build.ts';

const [entry, pagesArg] = process.argv.slice(2);
const count = Number(pagesArg);
const { Crawlkit, createSqliteStore, monitorStore } = await loadMonitorBuild(entry!);

const gc = (globalThis as { gc?: () => void }).gc!;
const dir = mkdtempSync(join(tmpdir(), 'ck-bench-checks-'));
const sqlite = await createSqliteStore({ dir });
let written = 0;
let largest = 0;
let read = 0;
// The store, its history's records counted as they are written and read.
const store = {
  ...sqlite,
  history: {
    latest: async (key: string, tag: string) => {
      const entry = await sqlite.history.latest(key, tag);
      read += entry?.value.length ?? 0;
      return entry;
    },
    append: (entry: { url: string; tag: string; scrapedAt: number; value: string }) => {
      written += entry.value.length;
      largest = Math.max(largest, entry.value.length);
      return sqlite.history.append(entry);
    },
  },
};
const ck = new Crawlkit({ store, engine: 'http' });
const created = await ck.monitors.create({
  name: 'bench',
  schedule: { cron: '0 0 1 1 *' },
  targets: [{ type: 'crawl', url: 'http://127.0.0.1:9/' }],
});
if (!created.success) throw new Error(JSON.stringify(created));
const monitorId = created.data.id;
const monitor = await monitorStore.readMonitor(store, monitorId);

const STATUSES = ['same', 'same', 'same', 'changed', 'new', 'same', 'removed', 'same', 'same', 'error'] as const;
const diff = (i: number) =>
  `--- a\n+++ b\n@@ -1,6 +1,6 @@\n ${'Context line of the page, kept as it was. '.repeat(2)}\n-The price of item ${i} was $129.\n+The price of item ${i} is $119.\n ${'Another context line of the page. '.repeat(3)}\n`;
const pages = Array.from({ length: count }, (_, i) => {
  const status = STATUSES[i % STATUSES.length]!;
  return {
    id: `0192f0a4-0000-7000-8000-${String(i).padStart(12, '0')}`,
    targetId: 'tgt_bench',
    url: `https://docs.example.com/section-${i % 40}/page-${i}.html`,
    status,
    currentScrapeId: status === 'removed' ? null : `0192f0a4-1111-7000-8000-${String(i).padStart(12, '0')}`,
    statusCode: status === 'removed' ? null : status === 'error' ? 500 : 200,
    error: status === 'error' ? 'HTTP 500' : null,
    diff: status === 'changed' ? { text: diff(i) } : null,
  };
});
const summary = { totalPages: count, same: 0, changed: 0, new: 0, removed: 0, error: 0 };
for (const page of pages) summary[page.status]++;
const now = Date.now();
const checkId = '0192f0a4-2222-7000-8000-000000000001';
const check = {
  monitorId,
  trigger: 'manual',
  scheduledFor: now,
  startedAt: now,
  jobIds: [null],
  skipped: [],
  errors: [],
  meta: monitor.meta,
  slots: monitor.slots,
  closed: { status: 'completed', finishedAt: now + 1, summary, pages },
};

const measure = async (fn: () => Promise<unknown>) => {
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  written = 0;
  largest = 0;
  read = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await fn();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const heapAfter = process.memoryUsage().heapUsed;
  return {
    ms,
    cpuMs: (used.user + used.system) / 1000,
    written,
    largest,
    read,
    heapDeltaMb: (heapAfter - heapBefore) / 1024 ** 2,
  };
};

const close = await measure(() => monitorStore.writeCheck(store, checkId, check));
await monitorStore.addCheck(store, monitorId, checkId, now);
const pageOf = async (query: { skip: number; limit: number; status?: string }) => {
  const answer = await ck.monitors.check(monitorId, checkId, query);
  if (!answer.success || answer.data.pages.length === 0) throw new Error(JSON.stringify(answer).slice(0, 300));
};
// The first read (its statements prepared) is not timed.
await pageOf({ skip: 0, limit: 100 });
const detailLast = await measure(() => pageOf({ skip: count - 100, limit: 100 }));
const detailFirst = await measure(() => pageOf({ skip: 0, limit: 100 }));
const detailChanged = await measure(() => pageOf({ skip: 0, limit: 100, status: 'changed' }));
await ck.close();
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ close, detailLast, detailFirst, detailChanged }));
