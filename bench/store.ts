/**
 * Store benchmark: `pnpm --filter @crawlkit/store build && pnpm exec node bench/store.ts`
 *
 * Measures @crawlkit/store beside raw baselines taken in the same run:
 * - `pages.get` hit latency: hot tier, hot tier after another connection committed (re-validation), disk (hot tier
 *   off), memory store; against a raw `node:sqlite` SELECT of the same row and a raw `Map.get`.
 * - `tasks.add` of 10,000 tasks in one call; against a raw 10,000-row INSERT in one transaction.
 * - claim/complete throughput (claim 10, complete each with a 2 KB document); SQLite against the memory store.
 * Prints a table and writes bench/results/store.json. `--quick`: a tenth of the gets and claim/complete cycles.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createMemoryStore, createSqliteStore, type Store } from '@crawlkit/store';

import { finish, isQuick } from './lib/report.ts';

const root = mkdtempSync(join(tmpdir(), 'ck-bench-store-'));
const PAGE_BYTES = 50_000;
const quick = isQuick();
const GET_ITERATIONS = quick ? 2_000 : 20_000;
const ADD_TASKS = 10_000;
const CYCLE_TASKS = quick ? 500 : 5_000;

interface Row {
  name: string;
  median: string;
  p95: string;
  note: string;
}
const rows: Row[] = [];
const json: Record<string, unknown> = {};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

async function sampleAsync(iterations: number, fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < Math.min(1_000, iterations); i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await fn();
    samples.push((performance.now() - start) * 1_000);
  }
  return samples.sort((a, b) => a - b);
}

function sampleSync(iterations: number, fn: () => unknown): number[] {
  for (let i = 0; i < Math.min(1_000, iterations); i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    fn();
    samples.push((performance.now() - start) * 1_000);
  }
  return samples.sort((a, b) => a - b);
}

function latency(name: string, samples: number[], note = ''): number {
  const median = percentile(samples, 0.5);
  rows.push({ name, median: `${median.toFixed(2)} µs`, p95: `${percentile(samples, 0.95).toFixed(2)} µs`, note });
  json[name] = { medianUs: median, p95Us: percentile(samples, 0.95) };
  return median;
}

function once(name: string, ms: number, note = ''): void {
  rows.push({ name, median: `${ms.toFixed(1)} ms`, p95: '', note });
  json[name] = { ms };
}

function throughput(name: string, perSecond: number, note = ''): void {
  rows.push({ name, median: `${Math.round(perSecond).toLocaleString('en')} /s`, p95: '', note });
  json[name] = { perSecond };
}

/* ---------------------------------------------------------------------------------------------- pages.get -- */

const value = JSON.stringify({ markdown: 'lorem ipsum dolor sit amet '.repeat(PAGE_BYTES / 27) });
const page = { key: 'https://example.com/page|{}', url: 'https://example.com/page', cachedAt: Date.now(), value };
const lookup = { maxAge: 172_800_000 };

const hot = await createSqliteStore({ dir: join(root, 'hot') });
const other = await createSqliteStore({ dir: join(root, 'hot') });
const disk = await createSqliteStore({ dir: join(root, 'disk'), hotTier: false });
const memory = createMemoryStore();
for (const store of [hot, disk, memory]) await store.pages.put(page);

const hotMedian = latency(
  'pages.get hit, sqlite hot tier',
  await sampleAsync(GET_ITERATIONS, () => hot.pages.get(page.key, lookup)),
);
const revalidated: number[] = [];
for (let i = 0; i < 2_000; i++) {
  // Another connection commits (an unrelated page) before every read, forcing the re-validation of the hot copy.
  await other.pages.put({ key: 'other', url: 'u', cachedAt: i, value: 'x' });
  const start = performance.now();
  await hot.pages.get(page.key, lookup);
  revalidated.push((performance.now() - start) * 1_000);
}
latency(
  'pages.get hit, hot tier re-validated',
  revalidated.sort((x, y) => x - y),
  'after another connection committed',
);
const diskMedian = latency(
  'pages.get hit, sqlite disk (hot tier off)',
  await sampleAsync(GET_ITERATIONS, () => disk.pages.get(page.key, lookup)),
);
latency('pages.get hit, memory store', await sampleAsync(GET_ITERATIONS, () => memory.pages.get(page.key, lookup)));
latency('pages.get miss, sqlite', await sampleAsync(GET_ITERATIONS, () => hot.pages.get('missing', lookup)));

const raw = new DatabaseSync(join(root, 'disk', 'crawlkit.db'));
const select = raw.prepare('SELECT url, cached_at, value FROM pages WHERE key = ?');
const rawMedian = latency(
  'baseline: raw node:sqlite SELECT of the row',
  sampleSync(GET_ITERATIONS, () => select.get(page.key)),
);
const map = new Map([[page.key, page]]);
latency(
  'baseline: Map.get',
  sampleSync(GET_ITERATIONS, () => map.get(page.key)),
);
raw.close();
json.pageBytes = value.length;
json.hotVsDisk = diskMedian / hotMedian;
json.diskVsRawSelect = diskMedian / rawMedian;

/* ------------------------------------------------------------------------------------------------ tasks.add -- */

function tasks(n: number, prefix: string) {
  return Array.from({ length: n }, (_, i) => ({
    key: `${prefix}${i}`,
    url: `https://example.com/${prefix}/${i}`,
    depth: 1,
  }));
}
function job(id: string) {
  return {
    id,
    kind: 'crawl' as const,
    status: 'scraping' as const,
    request: '{}',
    createdAt: 1,
    updatedAt: 1,
    creditsUsed: 0,
  };
}

async function timeAdd(store: Store, id: string): Promise<number> {
  await store.jobs.create(job(id), []);
  const input = tasks(ADD_TASKS, id);
  const start = performance.now();
  const added = await store.tasks.add(id, input, { limit: ADD_TASKS * 2 });
  const ms = performance.now() - start;
  if (added.length !== ADD_TASKS) throw new Error(`added ${added.length}`);
  return ms;
}

once('tasks.add 10,000, sqlite', await timeAdd(disk, 'add-sqlite'));
const again = performance.now();
await disk.tasks.add('add-sqlite', tasks(ADD_TASKS, 'add-sqlite'), { limit: ADD_TASKS * 2 });
once('tasks.add 10,000 already known, sqlite', performance.now() - again, 'de-duplication only');
once('tasks.add 10,000, memory', await timeAdd(memory, 'add-memory'));

const baseline = new DatabaseSync(join(root, 'baseline.db'));
baseline.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL');
baseline.exec(
  'CREATE TABLE t (job_id TEXT, seq INTEGER, key TEXT, url TEXT, depth INTEGER, PRIMARY KEY (job_id, seq)) WITHOUT ROWID',
);
const insert = baseline.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?)');
const rawStart = performance.now();
baseline.exec('BEGIN');
tasks(ADD_TASKS, 'raw').forEach((t, i) => insert.run('raw', i + 1, t.key, t.url, t.depth));
baseline.exec('COMMIT');
once('baseline: raw INSERT 10,000 rows in one transaction', performance.now() - rawStart, 'no dedupe, limit, counters');
baseline.close();

/* ------------------------------------------------------------------------------------------- claim/complete -- */

async function cycle(store: Store, id: string): Promise<number> {
  await store.jobs.create(job(id), tasks(CYCLE_TASKS, id));
  const document = JSON.stringify({ markdown: 'x'.repeat(2_000) });
  const start = performance.now();
  let done = 0;
  for (;;) {
    const claimed = await store.tasks.claim(id, 10);
    if (claimed.length === 0) break;
    for (const task of claimed) {
      await store.tasks.complete(id, { key: task.key, credits: 1, document });
      done++;
    }
  }
  if (done !== CYCLE_TASKS) throw new Error(`completed ${done}`);
  return (done / (performance.now() - start)) * 1_000;
}

throughput('claim(10) + complete, sqlite', await cycle(disk, 'cycle-sqlite'), 'tasks completed per second');
throughput('claim(10) + complete, memory', await cycle(memory, 'cycle-memory'), 'tasks completed per second');

await Promise.all([hot.close(), other.close(), disk.close(), memory.close()]);
rmSync(root, { recursive: true, force: true });

finish({
  name: 'store',
  title: `@crawlkit/store store operations beside raw node:sqlite and Map (page value ${value.length.toLocaleString('en')} bytes)`,
  quick,
  rows: rows.map((r) => ({ measure: r.name, median: r.median, p95: r.p95, note: r.note })),
  notes: [
    `hot tier vs disk: ${(json.hotVsDisk as number).toFixed(1)}x faster; disk get vs raw SELECT: ${(json.diskVsRawSelect as number).toFixed(2)}x (the rows name their baselines)`,
  ],
  goals: [],
  data: { getIterations: GET_ITERATIONS, addTasks: ADD_TASKS, cycleTasks: CYCLE_TASKS, ...json },
});
