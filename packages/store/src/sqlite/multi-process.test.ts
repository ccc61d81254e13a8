import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { crawlTree, random, taskFor } from '../__fixtures__/work.ts';
import { MIGRATIONS } from './migrations.js';
import { createSqliteStore } from './sqlite-store.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '__fixtures__');
const root = mkdtempSync(join(tmpdir(), 'ck-sqlite-mp-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

interface Worker {
  child: ChildProcess;
  ready: Promise<void>;
  exit: Promise<Exit>;
  /** Resolves once the worker has printed `completed <n>` for at least `count` tasks, or has exited. */
  completed(count: number): Promise<void>;
}

/** Spawns the worker under Node's type stripping (this vitest runs on the Node 24 that pnpm provides). */
function spawnWorker(args: string[]): Worker {
  const child = spawn(
    process.execPath,
    ['--import', join(fixtures, 'ts-specifiers.ts'), join(fixtures, 'store-worker.ts'), ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  let onReady: () => void;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  let done = 0;
  let exited = false;
  const waiting: { count: number; resolve: () => void }[] = [];
  const settle = () => {
    for (const w of waiting.filter((w) => exited || done >= w.count)) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
  };
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.startsWith('ready\n')) onReady();
    const lines = stdout.slice(stdout.lastIndexOf('\n', stdout.length - 2) + 1);
    const last = /^completed (\d+)\n$/.exec(lines);
    if (last) done = Number(last[1]);
    settle();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<Exit>((resolve) => {
    child.on('exit', (code, signal) => {
      onReady();
      exited = true;
      settle();
      resolve({ code, signal, stdout, stderr });
    });
  });
  const completed = (count: number) =>
    new Promise<void>((resolve) => {
      waiting.push({ count, resolve });
      settle();
    });
  return { child, ready, exit, completed };
}

function summary<T>(exit: Exit): T {
  expect(exit.stderr).toBe('');
  expect(exit.code).toBe(0);
  const lines = exit.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]!) as T;
}

function inspect(dir: string): DatabaseSync {
  return new DatabaseSync(join(dir, 'crawlkit.db'));
}

describe('SQLite store shared by several processes', () => {
  it('adds, claims and completes one job from two processes: each task exactly once, limit kept', async () => {
    const dir = join(root, 'race');
    const setup = await createSqliteStore({ dir });
    await setup.jobs.create(
      { id: 'race', kind: 'batch', status: 'scraping', request: '{}', createdAt: 1, updatedAt: 1, creditsUsed: 0 },
      [],
    );
    await setup.close();

    const pool = 1_500;
    const limit = 1_000;
    const workers = [1, 2].map((seed) => spawnWorker(['race', dir, 'race', String(seed), String(pool), String(limit)]));
    await Promise.all(workers.map((w) => w.ready));
    writeFileSync(`${dir}.go`, '');
    type Race = { lease: boolean; added: string[]; completed: string[]; duplicates: number };
    const [a, b] = (await Promise.all(workers.map((w) => w.exit))).map((e) => summary<Race>(e)) as [Race, Race];

    expect([a.lease, b.lease].filter(Boolean)).toHaveLength(1);
    const added = [...a.added, ...b.added];
    const completed = [...a.completed, ...b.completed];
    expect(added).toHaveLength(limit);
    expect(new Set(added).size).toBe(limit);
    expect(completed).toHaveLength(limit);
    expect(new Set(completed)).toEqual(new Set(added));
    // Both processes really took part.
    expect(a.completed.length).toBeGreaterThan(0);
    expect(b.completed.length).toBeGreaterThan(0);

    const store = await createSqliteStore({ dir });
    expect(await store.tasks.counts('race')).toEqual({ queued: 0, active: 0, done: limit, failed: 0 });
    const results = await store.results.list('race', 0, 2 * limit);
    expect(results.map((r) => r.seq)).toEqual(Array.from({ length: limit }, (_, i) => i + 1));
    expect(new Set(results.map((r) => r.key)).size).toBe(limit);
    expect(results.every((r) => r.document === r.key)).toBe(true);
    expect((await store.jobs.get('race'))!.creditsUsed).toBe(limit);
    await store.close();

    const db = inspect(dir);
    expect(db.prepare("SELECT count(*) AS n FROM tasks WHERE job_id = 'race'").get()).toEqual({ n: limit });
    expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    db.close();
  }, 120_000);

  it('lets several processes create and migrate a new store at the same time', async () => {
    const dir = join(root, 'open');
    const workers = [1, 2, 3].map((i) => spawnWorker(['open', dir, `job-${i}`, String(i)]));
    await Promise.all(workers.map((w) => w.ready));
    writeFileSync(`${dir}.go`, '');
    for (const exit of await Promise.all(workers.map((w) => w.exit))) expect(summary(exit)).toEqual({ opened: true });
    const db = inspect(dir);
    expect(
      db
        .prepare('SELECT version FROM schema_migrations ORDER BY version')
        .all()
        .map((r) => r.version),
    ).toEqual(MIGRATIONS.map((m) => m.version));
    expect(db.prepare('SELECT id, queued FROM jobs ORDER BY id').all()).toEqual([
      { id: 'job-1', queued: 1 },
      { id: 'job-2', queued: 1 },
      { id: 'job-3', queued: 1 },
    ]);
    db.close();
  }, 60_000);

  it('shares the file between processes that each checkpoint on a thread: every page kept, the log dropped', async () => {
    const dir = join(root, 'pages');
    await (await createSqliteStore({ dir })).close();
    const path = join(dir, 'crawlkit.db');
    // 36 MB written by two processes at once: each starts its checkpointer, which checkpoints beside the other's.
    const workers = [1, 2].map((seed) => spawnWorker(['pages', dir, 'pages', String(seed), '60']));
    await Promise.all(workers.map((w) => w.ready));
    writeFileSync(`${dir}.go`, '');
    for (const exit of await Promise.all(workers.map((w) => w.exit))) expect(summary(exit)).toEqual({ put: 60 });
    // The last to close checkpointed the log and deleted it.
    expect(existsSync(`${path}-wal`)).toBe(false);
    const db = inspect(dir);
    expect(db.prepare('SELECT count(*) AS n FROM pages').get()).toEqual({ n: 120 });
    expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    db.close();
  }, 120_000);

  it('lets a process that never closes its store end: its checkpointer does not keep it alive', async () => {
    const dir = join(root, 'unclosed');
    const worker = spawnWorker(['pages', dir, 'unclosed', '1', '20', 'unclosed']);
    await worker.ready;
    writeFileSync(`${dir}.go`, '');
    expect(summary(await worker.exit)).toEqual({ put: 20 });
    const db = inspect(dir);
    expect(db.prepare('SELECT count(*) AS n FROM pages').get()).toEqual({ n: 20 });
    db.close();
  }, 60_000);

  it('survives SIGKILL at random points: every task done exactly once, database intact', async () => {
    const dir = join(root, 'crash');
    const total = 3_000;
    const maxClaim = 4;
    const setup = await createSqliteStore({ dir });
    await setup.jobs.create(
      { id: 'crash', kind: 'crawl', status: 'scraping', request: '{}', createdAt: 1, updatedAt: 1, creditsUsed: 0 },
      [taskFor(0, 0)],
    );
    await setup.close();

    const rand = random(42);
    let kills = 0;
    for (let round = 0; round < 8; round++) {
      // Killed at a point chosen in completed tasks, not in time. A worker that runs ahead of this (slow) reader stops at
      // 350 tasks, so however loaded the machine, eight rounds leave work for the last stretch.
      const worker = spawnWorker(['crawl', dir, 'crash', String(round + 1), String(total), '350']);
      await worker.completed(1 + Math.floor(rand() * 250));
      worker.child.kill('SIGKILL');
      const exit = await worker.exit;
      if (exit.signal === 'SIGKILL') kills++;
      else summary(exit);
    }
    expect(kills).toBe(8);

    const store = await createSqliteStore({ dir, maxPageBytes: 2_000_000 });
    await store.tasks.requeueActive('crash');
    // The last stretch runs here, so that some of the work is certainly done after the crashes.
    expect(await crawlTree(store, 'crash', total, rand)).toBeGreaterThan(0);
    expect(await store.tasks.counts('crash')).toEqual({ queued: 0, active: 0, done: total, failed: 0 });
    expect(await store.results.count('crash')).toBe(total);
    const results = await store.results.list('crash', 0, total + 10);
    expect(results.map((r) => r.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    const keys = results.map((r) => (JSON.parse(r.document) as { key: string }).key);
    expect(new Set(keys).size).toBe(total);
    expect(new Set(results.map((r) => r.key))).toEqual(new Set(Array.from({ length: total }, (_, i) => `k${i}`)));
    expect((await store.jobs.get('crash'))!.creditsUsed).toBe(total);
    const pages = await store.pages.stats();
    await store.close();

    const db = inspect(dir);
    expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    const { tasks, attempts } = db
      .prepare("SELECT count(*) AS tasks, sum(attempts) AS attempts FROM tasks WHERE job_id = 'crash'")
      .get() as { tasks: number; attempts: number };
    expect(tasks).toBe(total);
    // Only the tasks in flight at a kill (at most maxClaim each) were ever run twice: nothing whose result was
    // stored was claimed again.
    expect(attempts - total).toBeLessThanOrEqual(kills * maxClaim);
    // The trigger-kept page totals match the rows after every crash.
    expect(db.prepare('SELECT count(*) AS entries, coalesce(sum(bytes), 0) AS bytes FROM pages').get()).toEqual(pages);
    expect(pages.bytes).toBeLessThanOrEqual(2_000_000);
    db.close();
  }, 180_000);
});
