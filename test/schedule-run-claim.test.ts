/**
 * A manual run of a schedule (`schedules.run`, `crawlkit schedules run <id>`) at the same moment as a scheduled
 * firing of it, from two engines on one SQLite store: the runs take the schedule one after the other in the store,
 * so the later one sees the crawl the first one started, still running, and skips its target (never two crawls of a
 * target at once). A hold left by a process that stopped while it held the schedule ends without running that firing
 * again (a firing runs at most once).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createSqliteStore } from '@crawlkit/store';
import { Crawlkit } from 'crawlkit';
import { expect, it } from 'vitest';

import { until } from './helpers-batch.ts';

it('a manual run and a scheduled firing at once start one crawl of a target', async () => {
  // The page answers once released, so the crawl the first run starts is still running at the second.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = createServer((_req, res) => {
    void released.then(() => res.end('<html><head><title>Slow</title></head><body>Slow page.</body></html>'));
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const dir = mkdtempSync(join(tmpdir(), 'ck-schedule-run-claim-'));
  const firing = new Crawlkit({ storeDir: dir, engine: 'http', runSchedules: true });
  const manual = new Crawlkit({ storeDir: dir, engine: 'http' });
  try {
    const fired = new Promise<{ jobIds: (string | null)[]; skipped: number[] }>((resolve) =>
      firing.once('schedule:run', resolve),
    );
    // The manual run goes as the firing starts its first crawl, while it starts the others.
    const targets = Array.from({ length: 10 }, (_, i) => ({ type: 'crawl' as const, url: `${url}${i}`, limit: 1 }));
    const manualRun = new Promise<Awaited<ReturnType<typeof manual.schedules.run>>>((resolve) =>
      firing.once('job:started', () => resolve(runFirst(manual))),
    );
    // Due at once: the firing engine fires it as it is created.
    const created = await firing.schedules.create({ every: '1h', targets });
    if (!created.success) throw new Error(created.error);
    const [scheduled, ran] = await Promise.all([fired, manualRun]);
    if (!ran.success) throw new Error(ran.error);
    const started = [scheduled, ran.data].filter((run) => run.skipped.length === 0);
    const skipping = [scheduled, ran.data].filter((run) => run.skipped.length === targets.length);
    expect(started).toHaveLength(1);
    expect(skipping).toHaveLength(1);
    // The skipping run names the crawl the other started, still running.
    expect(skipping[0]!.jobIds).toEqual(started[0]!.jobIds);
    release();
  } finally {
    release();
    await Promise.all([firing.close(), manual.close()]);
    server.close();
    server.closeAllConnections();
    rmSync(dir, { recursive: true, force: true });
  }
}, 30_000);

/** Runs the store's schedule now (the firing started before its create answered its id). */
async function runFirst(ck: Crawlkit): ReturnType<Crawlkit['schedules']['run']> {
  const listed = await ck.schedules.list();
  if (!listed.success) return listed;
  return ck.schedules.run(listed.data[0]!.id);
}

it('a hold left by a stopped process ends with the next firing set, the held one not run again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ck-schedule-hold-left-'));
  const creator = new Crawlkit({ storeDir: dir, engine: 'http' });
  const created = await creator.schedules.create({
    cron: '0 3 * * *',
    targets: [{ type: 'scrape', url: 'http://127.0.0.1:9/' }],
  });
  await creator.close();
  if (!created.success) throw new Error(created.error);
  const { id } = created.data;
  // The hold a process took and never gave back, ended (the claim to minus its end, as schedule-hold.ts writes it).
  const store = await createSqliteStore({ dir });
  const nextRunAt = Date.parse(created.data.nextRunAt!);
  expect(await store.schedules!.claim(id, nextRunAt, -(Date.now() - 1))).toBe(true);
  const ck = new Crawlkit({ storeDir: dir, engine: 'http', runSchedules: true });
  try {
    const runs: unknown[] = [];
    ck.on('schedule:run', (run) => runs.push(run));
    // The engine's first call starts its scheduler, whose look finds the ended hold.
    ok(await ck.schedules.list());
    await until(async () => (await store.schedules!.get(id))!.nextRunAt > 0);
    expect(ok(await ck.schedules.get(id)).data).toMatchObject({ nextRunAt: created.data.nextRunAt, lastRun: null });
    expect(runs).toEqual([]);
  } finally {
    await ck.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

function ok<T extends { success: boolean }>(response: T): Extract<T, { success: true }> {
  if (!response.success) throw new Error(JSON.stringify(response));
  return response as Extract<T, { success: true }>;
}
