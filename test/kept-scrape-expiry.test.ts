/**
 * A scrape kept for `GET /v2/scrape/:id` (`keepResult`, every scrape of `crawlkit serve`) leaves the store once past
 * `jobResultTtlMs`, as expired jobs do; the page's own cache entry stays. A real fixture server on 127.0.0.1 and a
 * real SQLite file, read from outside as an operator would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { Crawlkit, type ScrapeResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ok, slowRoutes, until } from './helpers-batch.ts';

const TTL_MS = 1_500;

let server: FixtureServer;
let dir: string;
let ck: Crawlkit;

/** The store's page rows: kept scrapes (`scrape:<id>`) and cached pages, counted in the SQLite file. */
function pageRows(): { kept: number; cached: number } {
  const db = new DatabaseSync(join(dir, 'crawlkit.db'), { readOnly: true });
  try {
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    return {
      kept: count("SELECT count(*) AS n FROM pages WHERE url LIKE 'scrape:%'"),
      cached: count("SELECT count(*) AS n FROM pages WHERE url NOT LIKE 'scrape:%'"),
    };
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  server = await startFixtureServer({ routes: slowRoutes().routes });
  dir = mkdtempSync(join(tmpdir(), 'ck-kept-scrape-'));
  ck = new Crawlkit({ storeDir: dir, engine: 'http', jobResultTtlMs: TTL_MS });
});

afterAll(async () => {
  await ck.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('kept scrapes', () => {
  it('are deleted by the expiry sweep once past jobResultTtlMs, and the cached page stays', async () => {
    const scraped = ok<ScrapeResponse>(await ck.scrape({ url: `${server.url}/slow/kept?ms=1` }, { keepResult: true }));
    const id = scraped.data.metadata.scrapeId!;
    expect(ok<ScrapeResponse>(await ck.getScrape(id)).data.metadata.sourceURL).toBe(`${server.url}/slow/kept?ms=1`);
    // The page cache's write is off the scrape's path: it lands just after the answer.
    await until(() => pageRows().cached === 1);
    expect(pageRows()).toEqual({ kept: 1, cached: 1 });

    await until(async () => (await ck.getScrape(id)).success === false, 10_000);
    // The sweep runs every TTL (at least 1 s): two of them after the GET stopped answering. Before: kept stayed 1
    // until the cache's size cap (1 GiB) evicted it.
    await until(() => pageRows().kept === 0, 2 * TTL_MS + 2_000);
    expect(pageRows()).toEqual({ kept: 0, cached: 1 });
  });
});
