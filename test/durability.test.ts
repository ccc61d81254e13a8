/**
 * Jobs survive `kill -9` (issue 5): a child process runs a crawl and a batch on a real store directory against a
 * local fixture server and is killed with SIGKILL at seeded random points, several times; then a new engine on the
 * same directory lists the unfinished jobs, resumes them, and each finishes with every page exactly once. Every
 * response carries a fetch serial, so the test proves that no page was fetched again after its result was stored.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { DatabaseSync } from 'node:sqlite';

import { createSqliteStore } from '@crawlkit/store';
import { Crawlkit, type Document, type JobStatusResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ensureBuilt } from './cli-helpers.ts';
import { BATCH_PAGES, batchPath, crawlPaths, pageHtml, serialOf } from './helpers/durability-site.ts';

const helpers = fileURLToPath(new URL('./helpers/', import.meta.url));
/** Seed of the kill points; `CK_DURABILITY_SEED=n` replays another sequence. */
const SEED = Number(process.env['CK_DURABILITY_SEED'] ?? 5);
const root = mkdtempSync(join(tmpdir(), 'ck-durability-'));

/** mulberry32: the kill points are random but reproducible. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let server: FixtureServer;
let serial = 0;
/** Fetch serials per page path, in fetch order. */
const fetches = new Map<string, number[]>();
/** Called on every page fetch with the pid of the process that made it (kill triggers). */
let onPage: ((pid: number) => void) | undefined;
/**
 * While set, page responses wait for it: a child spawned in a round makes no progress until the test has armed that
 * round's kill (a child that printed its ids late could otherwise finish the jobs first).
 */
let gate: { opened: Promise<void>; open: () => void } | undefined;

function closeGate(): void {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  gate = {
    opened,
    open: () => {
      gate = undefined;
      open();
    },
  };
}

beforeAll(async () => {
  ensureBuilt();
  server = await startFixtureServer({
    routes: {
      '/dur/*': async (req, res, ctx) => {
        const path = ctx.url.pathname;
        const n = ++serial;
        const html = pageHtml(path, n);
        if (html === undefined) {
          res.writeHead(404).end();
          return;
        }
        fetches.set(path, [...(fetches.get(path) ?? []), n]);
        if (gate) await gate.opened;
        onPage?.(Number(/crawlkit-durability\/(\d+)/.exec(req.headers['user-agent'] ?? '')?.[1]));
        // Slow enough that a few pages are always in flight when the process is killed.
        await new Promise((r) => setTimeout(r, 10 + (n % 4) * 10));
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      },
    },
  });
});

afterAll(async () => {
  onPage = undefined;
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

interface Child {
  child: ChildProcess;
  /** First line of stdout. */
  ready: Promise<string>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

function spawnChild(args: string[]): Child {
  const child = spawn(
    process.execPath,
    ['--import', join(helpers, 'built-hooks.ts'), join(helpers, 'durability-child.ts'), ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  let onReady: (line: string) => void;
  const ready = new Promise<string>((resolve) => (onReady = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    const newline = stdout.indexOf('\n');
    if (newline >= 0) onReady(stdout.slice(0, newline));
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<Awaited<Child['exit']>>((resolve) => {
    child.on('exit', (code, signal) => {
      onReady('');
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, ready, exit };
}

/**
 * Kills a child with SIGKILL when the `killAt`-th page request of this round arrives, `lagMs` later: the one that
 * made that request (so it is one driving a job) among `children`.
 */
function armKill(children: ChildProcess[], killAt: number, lagMs: number): void {
  let seen = 0;
  onPage = (pid) => {
    if (++seen !== killAt) return;
    onPage = undefined;
    const child = children.find((c) => c.pid === pid);
    if (!child) throw new Error(`request ${killAt} came from an unknown process ${pid}`);
    const kill = () => child.kill('SIGKILL');
    if (lagMs === 0) kill();
    else setTimeout(kill, lagMs);
  };
}

function pathOf(document: Document): string {
  return new URL(document.metadata.sourceURL).pathname;
}

/**
 * Every page exactly once in the results; each stored document comes from the last fetch of its page (so no page
 * was fetched after its result was stored); re-fetches bounded by the pages in flight at each kill.
 */
function expectExactlyOnce(status: JobStatusResponse, paths: string[], kills: number): void {
  expect(status.status).toBe('completed');
  const stored = status.data.map(pathOf);
  expect([...stored].sort()).toEqual([...paths].sort());
  expect(status.completed).toBe(paths.length);
  expect(status.total).toBe(paths.length);
  for (const document of status.data) {
    const seen = fetches.get(pathOf(document)) ?? [];
    expect(serialOf(document.markdown), pathOf(document)).toBe(seen.at(-1));
    expect(seen.length).toBeLessThanOrEqual(1 + kills);
  }
}

describe('jobs survive kill -9', () => {
  it('a crawl and a batch killed at random points resume on a new engine with every page exactly once', async () => {
    const storeDir = join(root, 'kills');
    const rand = random(SEED);
    const kills = 4;
    let ids: { crawl: string; batch: string } | undefined;
    for (let round = 0; round < kills; round++) {
      closeGate();
      const child = round === 0 ? spawnChild(['start', storeDir, server.url]) : spawnChild(['resume', storeDir]);
      const first = await child.ready;
      if (round === 0) ids = JSON.parse(first) as { crawl: string; batch: string };
      // Between the 1st and 8th page of the round; at the request itself or up to 40 ms later (mid-extraction,
      // mid-commit).
      armKill([child.child], 1 + Math.floor(rand() * 8), rand() < 0.3 ? 0 : Math.floor(rand() * 40));
      gate?.open();
      const exit = await child.exit;
      expect(exit.signal, exit.stderr).toBe('SIGKILL');
    }
    onPage = undefined;

    const ck = new Crawlkit({ storeDir, engine: 'http' });
    try {
      const unfinished = await ck.listUnfinishedJobs();
      if (!Array.isArray(unfinished)) throw new Error(unfinished.error);
      // Normally both; a job that got most of the page slots may have finished within the kill rounds.
      expect(unfinished.length).toBeGreaterThan(0);
      for (const job of unfinished) expect([ids!.crawl, ids!.batch]).toContain(job.id);
      for (const job of unfinished) expect(await ck.resumeJob(job.id)).toEqual({ success: true, id: job.id });
      const crawl = (await ck.waitForJob(ids!.crawl)) as JobStatusResponse;
      const batch = (await ck.waitForJob(ids!.batch)) as JobStatusResponse;
      expectExactlyOnce(crawl, crawlPaths(), kills);
      expectExactlyOnce(
        batch,
        Array.from({ length: BATCH_PAGES }, (_, i) => batchPath(i + 1)),
        kills,
      );
      expect(await ck.listUnfinishedJobs()).toEqual([]);
      // The kills did land mid-page: some pages in flight at a kill were fetched again (and only those).
      const refetched = [...fetches.values()].reduce((sum, serials) => sum + serials.length - 1, 0);
      expect(refetched).toBeGreaterThan(0);
      expect(refetched).toBeLessThanOrEqual(kills * 6);
    } finally {
      await ck.close();
    }
  }, 180_000);

  it('two processes on one store: one drives each job, the other takes over when it is killed', async () => {
    fetches.clear();
    const storeDir = join(root, 'two');
    const rand = random(SEED + 6);
    closeGate();
    const starter = spawnChild(['start', storeDir, server.url]);
    const ids = JSON.parse(await starter.ready) as { crawl: string; batch: string };
    armKill([starter.child], 1 + Math.floor(rand() * 6), 0);
    gate?.open();
    expect((await starter.exit).signal).toBe('SIGKILL');

    closeGate();
    const a = spawnChild(['resume', storeDir]);
    const b = spawnChild(['resume', storeDir]);
    await Promise.all([a.ready, b.ready]);
    // Kill whichever process fetches the chosen page: it drives at least one job, and the other must take that over.
    armKill([a.child, b.child], 5 + Math.floor(rand() * 10), Math.floor(rand() * 30));
    gate?.open();
    const exits = await Promise.all([a.exit, b.exit]);
    onPage = undefined;
    const killed = exits.filter((e) => e.signal === 'SIGKILL');
    const survivor = exits.find((e) => e.signal !== 'SIGKILL');
    expect(killed).toHaveLength(1);
    expect(survivor?.stderr).toBe('');
    expect(survivor?.code).toBe(0);
    expect(survivor?.stdout).toBe('resumed\ndone\n');

    const ck = new Crawlkit({ storeDir, engine: 'http' });
    try {
      expect(await ck.listUnfinishedJobs()).toEqual([]);
      const crawl = (await ck.getCrawlStatus(ids.crawl, { limit: 1000 })) as JobStatusResponse;
      const batch = (await ck.getBatchScrapeStatus(ids.batch, { limit: 1000 })) as JobStatusResponse;
      expectExactlyOnce(crawl, crawlPaths(), 2);
      expectExactlyOnce(
        batch,
        Array.from({ length: BATCH_PAGES }, (_, i) => batchPath(i + 1)),
        2,
      );
    } finally {
      await ck.close();
    }
  }, 120_000);
});

describe('job results expire 24 h after completion', () => {
  beforeAll(() => gate?.open());

  const DAY_MS = 86_400_000;
  const urls = () => [`${server.url}${batchPath(1)}`, `${server.url}${batchPath(2)}`];

  it('sets expiresAt to completion + 24 h and deletes the job with its results once that has passed', async () => {
    const dir = join(root, 'expiry-day');
    const store = await createSqliteStore({ dir });
    const ck = new Crawlkit({ store, engine: 'http' });
    try {
      const started = await ck.batchScrape({ urls: urls() });
      if (!started.success) throw new Error(started.error);
      const done = (await ck.waitForJob(started.id)) as JobStatusResponse;
      expect(done.status).toBe('completed');
      const completedAt = (await store.jobs.get(started.id))!.completedAt!;
      expect(Date.parse(done.completedAt!)).toBe(completedAt);
      // Reference §13.6: milliseconds zeroed.
      expect(done.expiresAt).toBe(new Date(Math.floor((completedAt + DAY_MS) / 1000) * 1000).toISOString());

      // The store's clock is injectable: a minute before expiry nothing goes, at expiry the job and its rows do.
      expect(await store.jobs.deleteExpired(completedAt + DAY_MS - 60_000)).toEqual([]);
      expect(await store.results.count(started.id)).toBe(2);
      expect(await store.jobs.deleteExpired(completedAt + DAY_MS)).toEqual([started.id]);
      expect(await store.results.count(started.id)).toBe(0);
      expect(await ck.getBatchScrapeStatus(started.id)).toEqual({
        success: false,
        code: 'JOB_NOT_FOUND',
        error: 'Job not found',
      });
    } finally {
      await ck.close();
    }
  });

  it('an expired job is not found any more and its rows leave the disk (jobResultTtlMs)', async () => {
    const dir = join(root, 'expiry-short');
    const ck = new Crawlkit({ storeDir: dir, engine: 'http', jobResultTtlMs: 300 });
    try {
      const started = await ck.batchScrape({ urls: urls() });
      if (!started.success) throw new Error(started.error);
      const done = (await ck.waitForJob(started.id)) as JobStatusResponse;
      expect(done.data).toHaveLength(2);
      await new Promise((r) => setTimeout(r, 400));
      const status = await ck.getBatchScrapeStatus(started.id);
      expect(status).toMatchObject({ success: false, code: 'JOB_NOT_FOUND' });
      const db = new DatabaseSync(join(dir, 'crawlkit.db'), { readOnly: true });
      try {
        for (const table of ['jobs', 'results', 'tasks']) {
          const column = table === 'jobs' ? 'id' : 'job_id';
          const row = db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`).get(started.id);
          expect(row, table).toEqual({ n: 0 });
        }
      } finally {
        db.close();
      }
    } finally {
      await ck.close();
    }
  });

  it('a job keeps the result TTL of the engine that started it, whichever engine ends it', async () => {
    const dir = join(root, 'expiry-carried');
    const FIVE_MIN = 5 * 60_000;
    closeGate();
    const starter = new Crawlkit({ storeDir: dir, engine: 'http', jobResultTtlMs: FIVE_MIN });
    const started = await starter.batchScrape({ urls: urls() });
    if (!started.success) throw new Error(started.error);
    const running = (await starter.getBatchScrapeStatus(started.id)) as JobStatusResponse;
    const createdAt = Date.parse(running.createdAt!);
    expect(running.expiresAt).toBe(new Date(Math.floor((createdAt + FIVE_MIN) / 1000) * 1000).toISOString());
    // Closed with its pages held by the site: the job is left to resume, here by an engine with the default TTL.
    await starter.close();
    gate?.open();
    const finisher = new Crawlkit({ storeDir: dir, engine: 'http', resumeJobs: true });
    try {
      const done = (await finisher.waitForJob(started.id)) as JobStatusResponse;
      expect(done.status).toBe('completed');
      const kept = Date.parse(done.expiresAt) - Date.parse(done.completedAt!);
      expect(kept).toBeGreaterThan(FIVE_MIN - 1_000);
      expect(kept).toBeLessThanOrEqual(FIVE_MIN);
    } finally {
      await finisher.close();
    }
  });

  it("an expired crawl's change record leaves the disk with it (one a crawl of a schedule would leave)", async () => {
    const dir = join(root, 'expiry-changes');
    const ck = new Crawlkit({ storeDir: dir, engine: 'http', jobResultTtlMs: 300 });
    try {
      const started = await ck.crawl({ url: urls()[0]!, limit: 1, changes: true });
      if (!started.success) throw new Error(started.error);
      await ck.waitForJob(started.id);
      const changeRows = () => {
        const db = new DatabaseSync(join(dir, 'crawlkit.db'), { readOnly: true });
        try {
          return db.prepare('SELECT count(*) AS n FROM history WHERE url = ?').get(started.id);
        } finally {
          db.close();
        }
      };
      expect(changeRows()).toEqual({ n: 1 });
      await new Promise((r) => setTimeout(r, 400));
      expect(await ck.getCrawlStatus(started.id)).toMatchObject({ success: false, code: 'JOB_NOT_FOUND' });
      expect(changeRows()).toEqual({ n: 0 });
    } finally {
      await ck.close();
    }
  });
});
