/**
 * `watch(id, { skip })`, as `crawlkit resume` uses it after a kill: the documents skipped are never read out of the
 * store. A real fixture server on 127.0.0.1 and a real SQLite store, whose `results` reads are counted (the store
 * itself answers them).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createSqliteStore, type SqliteStore } from '@crawlkit/store';
import { Crawlkit, type BatchScrapeResponse, type JobStatusResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ok, slowRoutes } from './helpers-batch.ts';

let server: FixtureServer;
let dir: string;
let store: SqliteStore;
let ck: Crawlkit;
/** Results the store handed out through `results.since` and `results.list`. */
let rowsRead = 0;

beforeAll(async () => {
  server = await startFixtureServer({ routes: slowRoutes().routes });
  dir = mkdtempSync(join(tmpdir(), 'ck-watch-skip-'));
  store = await createSqliteStore({ dir });
  const { results } = store;
  const since = results.since.bind(results);
  const list = results.list.bind(results);
  results.since = async (...args) => {
    const rows = await since(...args);
    rowsRead += rows.length;
    return rows;
  };
  results.list = async (...args) => {
    const rows = await list(...args);
    rowsRead += rows.length;
    return rows;
  };
  ck = new Crawlkit({ store, engine: 'http', concurrency: 8 });
});

afterAll(async () => {
  await ck.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('watch with skip', () => {
  it('reads only the documents past skip, in order, and none when skip is at or past the end', async () => {
    const urls = Array.from({ length: 40 }, (_, i) => `${server.url}/slow/s${i}?ms=1`);
    const started = ok<BatchScrapeResponse>(await ck.batchScrape({ urls }));
    expect(ok<JobStatusResponse>(await ck.waitForJob(started.id)).completed).toBe(40);
    const all: string[] = [];
    for await (const doc of ck.watch(started.id)) all.push(doc.metadata.sourceURL);
    expect(all).toHaveLength(40);

    rowsRead = 0;
    const rest: string[] = [];
    for await (const doc of ck.watch(started.id, { skip: 36 })) rest.push(doc.metadata.sourceURL);
    expect(rest).toEqual(all.slice(36));
    // Before: 40, the 36 skipped read out of the store and dropped.
    expect(rowsRead).toBe(4);

    rowsRead = 0;
    const none: string[] = [];
    for await (const doc of ck.watch(started.id, { skip: 40 })) none.push(doc.metadata.sourceURL);
    const past: string[] = [];
    for await (const doc of ck.watch(started.id, { skip: 500 })) past.push(doc.metadata.sourceURL);
    expect([none, past, rowsRead]).toEqual([[], [], 0]);
  });
});
